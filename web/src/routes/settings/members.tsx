import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import type { Data, InvitationInput, RoleChange } from '../../api/contract';
import { meQuery, useCan } from '../../api/me';
import { invitationsQuery, membersQuery, ROLES, type Invitation, type Member, type NewInvitation, type Role } from '../../api/queries/members';
import { ConfirmButton, CopyButton, Field, FormAlert, fieldProps, formErrors, useFocusFirstInvalid } from '../../components/Form';
import { ListPanel } from '../../components/ListPanel';
import { ErrorNote } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';

const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', member: 'Member' };

/** A change of someone's role or membership can change the caller's own role too. */
function useInvalidateMembers() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: ['api', '/api/members'] }), qc.invalidateQueries({ queryKey: ['api', '/api/users/me'] })]);
}

/** An owner changes a role in place; a refusal (the last owner) shows under it. */
function RoleSelect({ m }: { m: Member }) {
  const invalidate = useInvalidateMembers();
  const change = useMutation({
    mutationFn: (role: Role) => api('PATCH /api/members/:userId', { params: { userId: m.userId }, json: { role } }),
    onSuccess: invalidate,
  });
  return (
    <>
      <select
        aria-label={`Role of ${m.email}`}
        value={change.isPending ? change.variables : m.role}
        disabled={change.isPending}
        onChange={(e) => change.mutate(e.currentTarget.value as Role)}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABEL[r]}
          </option>
        ))}
      </select>
      {change.isError && <ErrorNote error={change.error} />}
    </>
  );
}

function RemoveMember({ m, you }: { m: Member; you: boolean }) {
  const invalidate = useInvalidateMembers();
  const remove = useMutation({ mutationFn: () => api('DELETE /api/members/:userId', { params: { userId: m.userId } }), onSuccess: invalidate });
  return (
    <>
      <ConfirmButton
        label="Remove"
        confirmLabel="Remove member"
        question={you ? 'Remove yourself from this organisation? You lose access at once.' : `Remove ${m.email}? Their API keys for this organisation stop working at once.`}
        onConfirm={() => remove.mutate()}
        disabled={remove.isPending}
      />
      {remove.isError && <ErrorNote error={remove.error} />}
    </>
  );
}

function MembersTable({ manage, meId }: { manage: boolean; meId: string | undefined }) {
  const [page, setPage] = useState(1);
  const members = useQuery({ ...membersQuery(page), placeholderData: (prev) => prev });
  return (
    <ListPanel
      title="Members"
      id="members"
      query={members}
      height={160}
      onPage={setPage}
      rowKey={(m) => m.userId}
      columns={[
        {
          key: 'person',
          header: 'Person',
          cell: (m) => (
            <>
              {m.displayName ? `${m.displayName} (${m.email})` : m.email}
              {m.userId === meId && <span className="muted"> · you</span>}
            </>
          ),
        },
        { key: 'role', header: 'Role', cell: (m) => (manage ? <RoleSelect m={m} /> : ROLE_LABEL[m.role]) },
        { key: 'joinedAt', header: 'Joined', cell: (m) => formatDateTime(m.joinedAt) },
      ]}
      actions={manage ? (m) => <RemoveMember m={m} you={m.userId === meId} /> : undefined}
    />
  );
}

/** How the new invitation travels: e-mailed, or (no mailer on the server) a link to pass on, with why. */
function Sent({ invitation, onDone }: { invitation: NewInvitation; onDone: () => void }) {
  const { delivery } = invitation;
  return (
    <section className="panel" aria-labelledby="sent-title" data-testid="invitation-sent">
      <h2 id="sent-title">{invitation.email} is invited</h2>
      {delivery.method === 'mail' ? (
        <p>We e-mailed them the invitation link. It works once and expires on {formatDateTime(invitation.expiresAt)}.</p>
      ) : (
        <>
          <p className="notice" data-testid="no-mail-reason">
            {delivery.reason}
          </p>
          <div className="secret">
            <code data-testid="invitation-link">{delivery.link}</code>
            <CopyButton text={delivery.link ?? ''} label="Copy link" />
          </div>
          <p>The link works once, only for {invitation.email}, and expires on {formatDateTime(invitation.expiresAt)}.</p>
        </>
      )}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function InviteForm({ onSent }: { onSent: (invitation: NewInvitation) => void }) {
  const qc = useQueryClient();
  const invite = useMutation({
    mutationFn: (body: InvitationInput) => api('POST /api/invitations', { json: body }),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: ['api', '/api/invitations'] });
      onSent(res.data);
    },
  });
  const errors = formErrors(invite.error, ['email', 'role']);
  const form = useFocusFirstInvalid(invite.error);
  return (
    <form
      ref={form}
      noValidate
      aria-labelledby="invite-title"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        invite.mutate({ email: String(data.get('email') ?? ''), role: String(data.get('role') ?? '') as Role }, { onSuccess: () => form.current?.reset() });
      }}
    >
      <h2 id="invite-title">Invite someone</h2>
      <FormAlert errors={errors} />
      <div className="form-row">
        <Field form="invite" name="email" label="E-mail address" errors={errors}>
          <input {...fieldProps('invite', 'email', errors)} type="email" maxLength={320} autoComplete="off" />
        </Field>
        <Field form="invite" name="role" label="Role" errors={errors}>
          <select {...fieldProps('invite', 'role', errors)} defaultValue="member">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        </Field>
        <button className="primary" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </button>
      </div>
    </form>
  );
}

function RevokeInvitation({ i }: { i: Invitation }) {
  const qc = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api('DELETE /api/invitations/:id', { params: { id: i.id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['api', '/api/invitations'] }),
  });
  return (
    <>
      <ConfirmButton label="Revoke" confirmLabel="Revoke invitation" question={`Revoke the invitation of ${i.email}? Its link stops working at once.`} onConfirm={() => revoke.mutate()} disabled={revoke.isPending} />
      {revoke.isError && <ErrorNote error={revoke.error} />}
    </>
  );
}

function Invitations() {
  const [page, setPage] = useState(1);
  const invitations = useQuery({ ...invitationsQuery(page), placeholderData: (prev) => prev });
  return (
    <ListPanel
      title="Pending invitations"
      id="invitations"
      query={invitations}
      height={120}
      onPage={setPage}
      rowKey={(i) => i.id}
      columns={[
        { key: 'email', header: 'E-mail address', cell: (i) => i.email },
        { key: 'role', header: 'Role', cell: (i) => ROLE_LABEL[i.role] },
        { key: 'status', header: 'Status', cell: (i) => (i.status === 'expired' ? 'Expired: invite again for a new link' : 'Waiting') },
        { key: 'invitedBy', header: 'Invited by', cell: (i) => i.invitedBy?.email ?? '—' },
        { key: 'expiresAt', header: 'Expires', cell: (i) => formatDateTime(i.expiresAt) },
      ]}
      actions={(i) => <RevokeInvitation i={i} />}
      empty="No invitation is waiting for an answer."
    />
  );
}

export function MembersPage() {
  usePageTitle('Members');
  const me = useQuery(meQuery);
  const can = useCan();
  const manage = can('member.manage') === true;
  const [sent, setSent] = useState<NewInvitation | null>(null);
  return (
    <>
      <h1>Members</h1>
      <p>
        {manage
          ? 'People who can sign in to this organisation and their roles. Owners manage members, invitations, keys and settings; members use the dashboards and their own keys.'
          : 'People who can sign in to this organisation. Ask an owner to invite someone or change a role.'}
      </p>
      <MembersTable manage={manage} meId={me.data?.data.user.id} />
      {can('invitation.manage') === true && (
        <>
          {sent ? <Sent invitation={sent} onDone={() => setSent(null)} /> : <InviteForm onSent={setSent} />}
          <Invitations />
        </>
      )}
    </>
  );
}
