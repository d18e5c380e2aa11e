import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { meQuery } from '../../api/me';
import { identitiesQuery, type LinkedIdentity } from '../../api/queries/account';
import { ConfirmButton } from '../../components/Form';
import { ListPanel } from '../../components/ListPanel';
import { ErrorNote } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';

/** One linked account; the last one stays when it is the only way back in (the API says the same with a 409). */
const accountName = (identity: LinkedIdentity) => identity.username ?? identity.email ?? '—';

function RemoveIdentity({ identity, keep }: { identity: LinkedIdentity; keep: boolean }) {
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api('DELETE /api/users/me/identities/:id', { params: { id: identity.id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['api', '/api/users/me/identities'] }),
  });
  const name = accountName(identity);
  return (
    <>
        {keep ? (
          <span className="muted">Your only way to sign in</span>
        ) : (
          <ConfirmButton
            label="Remove"
            confirmLabel={`Remove ${identity.providerName}`}
            question={`Remove the ${identity.providerName} account ${name}? You can no longer sign in with it until it is linked again.`}
            onConfirm={() => remove.mutate()}
            disabled={remove.isPending}
          />
        )}
        {remove.isError && <ErrorNote error={remove.error} />}
    </>
  );
}

/** Settings › Account: the sign-in accounts linked to the signed-in person (docs/auth-providers.md, "Linked accounts"). */
export function AccountPage() {
  usePageTitle('Account');
  const me = useQuery(meQuery);
  const identities = useQuery(identitiesQuery);
  const keepOnly = identities.data?.data.length === 1;
  const emailSignIn = identities.data?.meta.emailSignIn ?? true;
  return (
    <>
      <h1>Account</h1>
      <p>
        You are signed in as <strong>{me.data?.data.user.email ?? '…'}</strong>.{' '}
        {emailSignIn ? 'You can always sign in with a link e-mailed to this address.' : 'E-mail sign-in is not available on this server.'}
      </p>
      <ListPanel
        title="Linked sign-in accounts"
        id="identities"
        query={identities}
        height={120}
        rowKey={(identity) => identity.id}
        columns={[
          { key: 'provider', header: 'Provider', cell: (identity) => identity.providerName },
          { key: 'account', header: 'Account', cell: (identity) => (identity.username && identity.email ? `${identity.username} (${identity.email})` : accountName(identity)) },
          { key: 'createdAt', header: 'Linked', cell: (identity) => formatDateTime(identity.createdAt) },
          { key: 'lastSignInAt', header: 'Last sign-in', cell: (identity) => formatDateTime(identity.lastSignInAt) },
        ]}
        actions={(identity) => <RemoveIdentity identity={identity} keep={!emailSignIn && keepOnly} />}
        empty="No sign-in account is linked. Signing in with GitHub, GitLab, Google or Microsoft links that account the first time, when it has a verified e-mail address that is yours."
      />
      <p className="hint">
        To link another account, sign out and sign in with it: an account whose verified e-mail address is yours is linked on its first sign-in.
      </p>
    </>
  );
}
