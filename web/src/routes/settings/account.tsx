import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { meQuery } from '../../api/me';
import { identitiesQuery, type LinkedIdentity } from '../../api/queries/account';
import { ConfirmButton } from '../../components/Form';
import { ErrorNote, Panel } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';

/** One linked account; the last one stays when it is the only way back in (the API says the same with a 409). */
function IdentityRow({ identity, keep }: { identity: LinkedIdentity; keep: boolean }) {
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api(`/api/users/me/identities/${identity.id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['api', '/api/users/me/identities'] }),
  });
  const name = identity.username ?? identity.email ?? '—';
  return (
    <tr>
      <th scope="row">{identity.providerName}</th>
      <td>{identity.username && identity.email ? `${identity.username} (${identity.email})` : name}</td>
      <td>{formatDateTime(identity.createdAt)}</td>
      <td>{formatDateTime(identity.lastSignInAt)}</td>
      <td>
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
      </td>
    </tr>
  );
}

/** Settings › Account: the sign-in accounts linked to the signed-in person (docs/auth.md, "Linked accounts"). */
export function AccountPage() {
  usePageTitle('Account');
  const me = useQuery(meQuery);
  const identities = useQuery(identitiesQuery);
  const list = identities.data?.data ?? [];
  const emailSignIn = identities.data?.meta.emailSignIn ?? true;
  return (
    <>
      <h1>Account</h1>
      <p>
        You are signed in as <strong>{me.data?.data.user.email ?? '…'}</strong>.{' '}
        {emailSignIn ? 'You can always sign in with a link e-mailed to this address.' : 'E-mail sign-in is not available on this server.'}
      </p>
      <Panel title="Linked sign-in accounts" id="identities" query={identities} height={120}>
        {() =>
          list.length > 0 ? (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Provider</th>
                    <th scope="col">Account</th>
                    <th scope="col">Linked</th>
                    <th scope="col">Last sign-in</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((identity) => (
                    <IdentityRow key={identity.id} identity={identity} keep={!emailSignIn && list.length === 1} />
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="empty" data-testid="empty">
              No sign-in account is linked. Signing in with GitHub, GitLab, Google or Microsoft links that account the first time, when it has a verified e-mail address that is yours.
            </p>
          )
        }
      </Panel>
      <p className="hint">
        To link another account, sign out and sign in with it: an account whose verified e-mail address is yours is linked on its first sign-in.
      </p>
    </>
  );
}
