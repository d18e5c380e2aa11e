/**
 * Why a value is empty, in the order a reader should fix things: no source connected, nothing in
 * range, nothing imported. A blank cell or a made-up zero is a bug; every empty value says why.
 */
import { formatDay, formatMonth } from './format';

export type Subject = 'deployments' | 'finishedDeployments' | 'recoveries' | 'incidents' | 'leadTime' | 'pullRequests' | 'issues' | 'aiSessions' | 'aiCommits' | 'aiLines' | 'aiEdits' | 'seats' | 'surveys' | 'surveyScore';

export interface Reason {
  text: string;
  fix?: { label: string; href: string };
}

/** Where a project's deployment source is chosen (docs/codehost-deployments.md). */
const DEPLOYMENT_SOURCES = { label: 'Choose a deployment source', href: '/app/settings/deployments' };
const REGISTER = { label: 'Import the register', href: '/app/help#register' };

const NOTHING: Record<Subject, string> = {
  deployments: 'No production deployment',
  finishedDeployments: 'No finished production deployment',
  recoveries: 'No failed production deployment was recovered',
  incidents: 'No incident closed',
  leadTime: 'No merged pull request reached production',
  pullRequests: 'No pull request merged',
  issues: 'No issue closed',
  aiSessions: 'No AI session started',
  aiCommits: 'No commit linked to an AI session',
  aiLines: 'No merged pull request added a line',
  aiEdits: 'No AI edit offered (telemetry or a vendor report)',
  seats: 'No AI seat held',
  surveys: 'No survey invitation',
  surveyScore: 'No survey response',
};

export function periodText(period: { month?: string; from?: string; to?: string; days?: number; first?: string; last?: string }): string {
  // A day span (a partial month) or a days window, said as such rather than as whole months.
  if (period.first && period.last) return `from ${formatDay(period.first)} to ${formatDay(period.last)}`;
  if (period.days) return `in the last ${period.days} days`;
  if (period.month) return `in ${formatMonth(period.month)}`;
  if (period.from && period.to) return period.from === period.to ? `in ${formatMonth(period.from)}` : `from ${formatMonth(period.from)} to ${formatMonth(period.to)}`;
  return '';
}

/** Measures that are empty, not zero, for a scope that never sent a deployment. */
export const needsDeploymentSource = (subject: Subject): boolean =>
  subject === 'deployments' || subject === 'finishedDeployments' || subject === 'recoveries' || subject === 'leadTime';

/**
 * The reason for an empty value of `subject`; `hasSource` is false when the team (or tenant) never
 * sent a deployment, which empties every deployment measure whatever the period.
 */
export function emptyReason(subject: Subject, period: Parameters<typeof periodText>[0], context: { hasDeploymentSource?: boolean } = {}): Reason {
  if (needsDeploymentSource(subject) && context.hasDeploymentSource === false) {
    return {
      text: 'No deployment source connected: no project of this scope has ever sent a deployment. Possible sources: the webhook API, the code host’s deployments, workflow runs or releases.',
      fix: DEPLOYMENT_SOURCES,
    };
  }
  return { text: `${NOTHING[subject]} ${periodText(period)}`.trim() + '.' };
}

export const FEWER_THAN_3 = 'Fewer than 3 responses: hidden so that answers stay anonymous.';

export const NO_TEAMS: Reason = { text: 'No team in the register yet, so nothing can be shown per team.', fix: REGISTER };
