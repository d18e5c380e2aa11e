/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { DEPLOYMENT_SOURCES } from '../db/schema/index.js';

const NO_ID = '00000000-0000-0000-0000-000000000000';
/** A malformed id is "not found", like an id of another tenant. */
export const ProjectParams = z.object({ projectId: z.uuid() }).catch({ projectId: NO_ID });
const name = (max: number) => z.string().trim().min(1, 'Must not be empty').max(max, `Must be at most ${max} characters`).regex(/^[^\s]+$/, 'Must not contain spaces');

export const DeploymentSourceBody = z.strictObject({
  source: z.enum(DEPLOYMENT_SOURCES).nullable(),
  /** The workflow's file name, e.g. `deploy.yml` (a path's last segment is used). */
  workflow: name(255).nullable().optional(),
  branch: name(255).nullable().optional(),
  productionEnvironment: name(255).nullable().optional(),
});

/** `deploy.yml`, or a pattern such as `deploy*.yml` (`*`: any characters); null removes it. */
export const OrganisationPatternBody = z.strictObject({
  pattern: z.strictObject({ workflow: name(255), branch: name(255).nullable().optional() }).nullable(),
});
