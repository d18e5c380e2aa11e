/**
 * The server's answers and request bodies, as types taken from the server itself: its presenters
 * (what every route sends is built by one) and its zod body schemas. Type-only imports: nothing of
 * the server is bundled, but a server change that breaks the app fails `npm run lint`. The CLI's
 * remote commands read the same presenters (src/cliLogin/cli.ts).
 *
 * A route that composes its body from presenters is composed the same way here; keep the two in
 * step when a route changes (the types then still come from the presenters).
 */
import type { z } from 'zod';
import type { Answer } from './client';
import type { presentAiSettings } from '../../../src/ai/presenters';
import type { AiSettingsBody } from '../../../src/ai/schemas';
import type { presentAttributionSettings } from '../../../src/aiAttribution/presenters';
import type { AttributionSettingsBody } from '../../../src/aiAttribution/schemas';
import type { SignalCounts } from '../../../src/aiAttribution/service';
import type { presentSource } from '../../../src/aiVendors/presenters';
import type { SaveSourceBody } from '../../../src/aiVendors/schemas';
import type { NotebookEvent } from '../../../src/ai/notebook/agent';
import type { presentCell, presentNotebook } from '../../../src/ai/notebook/service';
import type { CellBody, NotebookBody, NotebookPatch } from '../../../src/ai/notebook/schemas';
import type { presentApiKey, presentNewApiKey } from '../../../src/apiKeys/presenters';
import type { CreateKeyBody } from '../../../src/apiKeys/schemas';
import type { presentIdentity } from '../../../src/identity/providers/identities';
import type { presentBiConnection, presentBiCredential } from '../../../src/bi/presenters';
import type { CreateBiCredentialBody } from '../../../src/bi/schemas';
import type { billingNotice, billingOverview } from '../../../src/billing/service';
import type { LoadResult } from '../../../src/cube/service';
import type { presentCodehostStatus, presentInstallation } from '../../../src/codehost/presenters';
import type { LinkBody } from '../../../src/codehost/schemas';
import type { BaselineColumn, BaselineRow } from '../../../src/exports/baseline';
import type { listEnvelope } from '../../../src/http/route';
import type { presentChannel, presentSlackStatus } from '../../../src/integrations/slack/routes';
import type { DigestBody } from '../../../src/integrations/slack/schemas';
import type { presentNotionStatus, presentPage } from '../../../src/integrations/notion/routes';
import type { ParentBody } from '../../../src/integrations/notion/schemas';
import type { presentConnection } from '../../../src/integrations/shared/connections';
import type { trackerOverview } from '../../../src/integrations/trackers/service';
import type { SettingsChange } from '../../../src/integrations/trackers/schemas';
import type { presentCreatedInvitation, presentInvitation, presentMember } from '../../../src/members/presenters';
import type { ChangeRoleBody, CreateInvitationBody } from '../../../src/members/schemas';
import type { configReport } from '../../../src/operations/configReport';
import type { presentImport, presentImportRecord, presentPerson, presentTeam } from '../../../src/organisation/presenters';
import type { RegisterJobOutcome } from '../../../src/organisation/registerImportJobs';
import type { PersonPatch, TeamPatch, MemberBody } from '../../../src/organisation/schemas';
import type { presentSurvey } from '../../../src/surveys/presenters';
import type { CreateSurveyBody } from '../../../src/surveys/schemas';
import type { TenantBody } from '../../../src/tenants/schemas';
import type { createTenantForUser } from '../../../src/tenants/service';
import type { presentFeatures, presentMe } from '../../../src/users/presenters';
import type { UpdateMeBody } from '../../../src/users/schemas';

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
/** What a request body schema accepts (before its defaults and transforms). */
type In<S extends z.ZodType> = z.input<S>;

/** The general API's envelope: `{data, meta}`; `meta` is `{}` unless a route says more. */
export interface Data<T, M = Record<string, never>> {
  data: T;
  meta: M;
}
/** A paged list (`listEnvelope`): `meta` is `{page, perPage, total}`. */
export type List<T> = ReturnType<typeof listEnvelope<T>>;
export type ListMeta = List<unknown>['meta'];

// Users and organisations
export type Me = Out<typeof presentMe>;
export type Features = Out<typeof presentFeatures>;
/** An action of the policy table that needs no record (`Me['actions']` lists the caller's). */
export type TenantAction = Me['actions'][number];
export type UpdateMe = In<typeof UpdateMeBody>;
export type LinkedIdentity = Out<typeof presentIdentity>;
export type NewTenant = Out<typeof createTenantForUser> & { role: 'owner' };
export type TenantInput = In<typeof TenantBody>;
export type Member = Out<typeof presentMember>;
export type Role = Member['role'];
export type Invitation = Out<typeof presentInvitation>;
export type NewInvitation = Out<typeof presentCreatedInvitation>;
export type InvitationInput = In<typeof CreateInvitationBody>;
export type RoleChange = In<typeof ChangeRoleBody>;
export type ApiKey = Out<typeof presentApiKey>;
export type NewApiKey = Out<typeof presentNewApiKey>;
export type KeyInput = In<typeof CreateKeyBody>;
export type BiCredential = Out<typeof presentBiCredential>;
/** POST /api/bi/credentials: the credential and its connection (the connection's `id` is the credential's). */
export type NewBiCredential = BiCredential & Omit<Out<typeof presentBiConnection>, 'id'>;
export type BiCredentialInput = In<typeof CreateBiCredentialBody>;
export type BillingNotice = Out<typeof billingNotice>;
export type BillingOverview = Out<typeof billingOverview>;
export type ConfigReport = Out<typeof configReport> & { staleIntegrations: Record<string, number> };

// Register, teams, people
export type Team = Out<typeof presentTeam>;
export type TeamChange = In<typeof TeamPatch>;
export type TeamMemberInput = In<typeof MemberBody>;
export type Person = Out<typeof presentPerson>;
export type PersonChange = In<typeof PersonPatch>;
export type ImportResult = Out<typeof presentImport>;
export type ImportRecord = Out<typeof presentImportRecord>;
export type ImportJob = RegisterJobOutcome;
/** POST /api/register/imports?mode=async answers 202 with the queued job. */
export type QueuedImport = Pick<RegisterJobOutcome, 'jobId'> & { status: 'queued' };
export type { BaselineColumn };
/** A row of the team-baseline export, the same columns as its CSV; its month is always `YYYY-MM`. */
export type BaselineMonth = BaselineRow & { month: string };
/** `GET /api/exports/team-baseline?format=json`. */
export interface BaselineJson {
  from: string;
  to: string;
  generatedAt: string;
  rows: BaselineMonth[];
}

// Surveys and AI
export type Survey = Out<typeof presentSurvey>;
export type SurveyInput = In<typeof CreateSurveyBody>;
export type AiSettings = Out<typeof presentAiSettings>;
export type AiSettingsInput = In<typeof AiSettingsBody>;
export type AttributionSettings = Out<typeof presentAttributionSettings>;
export type AttributionSettingsInput = In<typeof AttributionSettingsBody>;
export type AttributionSignals = SignalCounts;
export type AiVendorSource = Out<typeof presentSource>;
export type AiVendorSourceInput = In<typeof SaveSourceBody>;
export type SessionListItem = Answer<'GET /api/sessions'>['data'][number];
/** A session's details with its review and the `actions` the caller may take on it. */
export type SessionDetails = Answer<'GET /api/sessions/:id'>['data'];
export type NotebookSummary = Out<typeof presentNotebook>;
export type Cell = Out<typeof presentCell>;
export type Notebook = NotebookSummary & { cells: Cell[] };
export type NotebookInput = In<typeof NotebookBody>;
export type NotebookChange = In<typeof NotebookPatch>;
export type CellInput = In<typeof CellBody>;
export type { NotebookEvent };

// The Cube REST surface: a `/load` answer in the default row format (the app asks with castNumerics).
export type CubeLoad = Pick<LoadResult, 'data' | 'lastRefreshTime'>;
/** Its error envelope's one answer that is not an error: the query is still running, ask again. */
export interface ContinueWait {
  error: 'Continue wait';
}

// Integrations
export type Codehost = Out<typeof presentCodehostStatus>;
export type Installation = Out<typeof presentInstallation>;
export type InstallationInput = In<typeof LinkBody>;
export type VendorConnection = Out<typeof presentConnection>;
export type SlackStatus = Out<typeof presentSlackStatus>;
export type Channel = Out<typeof presentChannel>;
export type DigestInput = In<typeof DigestBody>;
export type NotionStatus = Out<typeof presentNotionStatus>;
export type NotionPage = Out<typeof presentPage>;
export type ParentInput = In<typeof ParentBody>;
export type Trackers = Out<typeof trackerOverview>;
export type TrackerChange = In<typeof SettingsChange>;
