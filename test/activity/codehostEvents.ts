/**
 * Code-host deployment deliveries built by hand, as the code host sends them (`deployment`,
 * `deployment_status`, `workflow_run`, `release`), for the installation the tests link.
 */
import { FIXTURE_INSTALLATION } from './helpers.js';

export const installation = { id: FIXTURE_INSTALLATION };
export const sha = (c: string) => c.repeat(40);

export function deploymentEvent(repo: string, id: number, fields: { sha: string; created_at: string; environment?: string; production_environment?: boolean }) {
  return {
    action: 'created',
    installation,
    repository: { full_name: repo, default_branch: 'main' },
    deployment: {
      id, ref: 'main', task: 'deploy', description: null, creator: { login: 'octocat' }, url: `https://api.github.com/repos/${repo}/deployments/${id}`,
      environment: fields.environment ?? 'production', sha: fields.sha, created_at: fields.created_at,
      ...(fields.production_environment === undefined ? {} : { production_environment: fields.production_environment }),
    },
  };
}

export function statusEvent(repo: string, id: number, fields: { sha: string; created_at: string; environment?: string }, status: { id: number; state: string }) {
  return {
    ...deploymentEvent(repo, id, fields),
    deployment_status: { id: status.id, state: status.state, target_url: `https://ci.example/${id}/${status.id}`, created_at: fields.created_at },
  };
}

export function runEvent(repo: string, run: { id: number; attempt: number; conclusion: string | null; path?: string; branch?: string; sha: string; started: string; updated?: string; action?: string }) {
  return {
    action: run.action ?? 'completed',
    installation,
    repository: { full_name: repo, default_branch: 'main' },
    workflow_run: {
      id: run.id, name: 'Deploy', path: run.path ?? '.github/workflows/deploy.yml', head_branch: run.branch ?? 'main', head_sha: run.sha,
      status: 'completed', conclusion: run.conclusion, run_attempt: run.attempt, run_started_at: run.started, created_at: run.started, updated_at: run.updated ?? run.started,
      html_url: `https://github.com/${repo}/actions/runs/${run.id}`, actor: { login: 'octocat' },
    },
  };
}

export function releaseEvent(repo: string, action: string, release: { id: number; tag: string; published: string; prerelease?: boolean; draft?: boolean }) {
  return {
    action,
    installation,
    repository: { full_name: repo },
    release: {
      id: release.id, tag_name: release.tag, target_commitish: 'main', name: release.tag, draft: release.draft ?? false, prerelease: release.prerelease ?? false,
      created_at: release.published, published_at: release.published, html_url: `https://github.com/${repo}/releases/tag/${release.tag}`, author: { login: 'octocat' },
    },
  };
}
