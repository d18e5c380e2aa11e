import { apiQuery } from '../cube';

export type { AwaitingFirstReview, DeploymentFailure, FailedDeployment, UndeployedChange, OpenIncident, OpenPullRequest, OpenWorkBody, ReviewerState, WaitingState } from '../../../../src/openWork/presenters';

/** What is in flight now, for the organisation or one team (its id). */
export const openWorkQuery = (team: string | undefined) => apiQuery('GET /api/open-work', { query: { team } });
