/**
 * The repository, branch and commits of a session, from the git working copy it ran in. Each git
 * call has a short timeout; no git, no repository or a failing call gives nothing, never an error.
 */
import { execFile } from 'node:child_process';

const GIT_TIMEOUT_MS = 2000;

export interface GitFacts {
  projectKey: string | null;
  branch: string | null;
  commitShas: string[];
}

function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['-C', cwd, ...args], { timeout: GIT_TIMEOUT_MS, maxBuffer: 1024 * 1024, windowsHide: true }, (error, stdout) => {
      resolve(error ? null : String(stdout).trim());
    });
  });
}

/**
 * `owner/repo` from a remote URL: `git@host:owner/repo.git`, `https://host/owner/repo(.git)`,
 * `ssh://git@host:22/group/sub/repo.git` (a nested group gives its last two parts).
 */
export function projectKeyOf(remote: string): string | null {
  let path = remote.trim();
  const scheme = path.indexOf('://');
  if (scheme >= 0) {
    const slash = path.indexOf('/', scheme + 3);
    path = slash < 0 ? '' : path.slice(slash + 1);
  } else {
    const colon = path.indexOf(':');
    path = colon < 0 ? path : path.slice(colon + 1);
  }
  if (path.endsWith('/')) path = path.slice(0, -1);
  if (path.endsWith('.git')) path = path.slice(0, -4);
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.length < 2) return null;
  const key = `${parts[parts.length - 2]}/${parts[parts.length - 1]}`;
  return key.length <= 200 && !/\s/.test(key) ? key : null;
}

/** A time as git reads it everywhere (whole seconds, explicit UTC offset). */
function gitTime(iso: string, round: (n: number) => number): string {
  const seconds = round(Date.parse(iso) / 1000);
  return `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} +0000`;
}

/**
 * Commits of the person (their `<user.email>`, matched as a fixed string, so `x.dev@` is not `dev@`) on the current branch whose
 * commit time falls within the session.
 */
export async function gitFacts(cwd: string | null, startedAt: string | null, endedAt: string | null): Promise<GitFacts> {
  const none: GitFacts = { projectKey: null, branch: null, commitShas: [] };
  if (!cwd) return none;
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (top === null) return none;
  const [remote, branch, email] = await Promise.all([git(cwd, ['remote', 'get-url', 'origin']), git(cwd, ['rev-parse', '--abbrev-ref', 'HEAD']), git(cwd, ['config', 'user.email'])]);
  let commitShas: string[] = [];
  if (startedAt && endedAt && email) {
    const log = await git(cwd, ['log', `--since=${gitTime(startedAt, Math.floor)}`, `--until=${gitTime(endedAt, Math.ceil)}`, '--fixed-strings', `--author=<${email}>`, '--format=%H', '--max-count=1000']);
    commitShas = log ? log.split('\n').filter((sha) => /^[0-9a-f]{40}$/.test(sha)) : [];
  }
  return {
    projectKey: remote ? projectKeyOf(remote) : null,
    branch: branch && branch !== 'HEAD' ? branch : null,
    commitShas,
  };
}
