/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { CSRF_FIELD } from '../auth/csrf.js';

const optionalString = z.string().optional().catch(undefined);
export const LoginQuery = z.object({ mode: optionalString, returnUrl: optionalString, sent: optionalString, error: optionalString });
export const CallbackQuery = z.object({ token: optionalString });

const EmailFields = { email: z.email().max(320), returnUrl: z.string().max(4096).optional() };
export const JsonEmailBody = z.strictObject(EmailFields);
export const FormEmailBody = z.strictObject({ ...EmailFields, mode: z.string().max(20).optional(), [CSRF_FIELD]: z.string().max(100).optional() });

export const TokenParams = z.object({ token: z.string().max(300) });
export const InviteQuery = z.object({ sent: z.string().optional().catch(undefined) });
