import type { UpsertResult } from './service.js';

/** The spec's "Webhook success response"; 201 when the record was created, 200 when updated. */
export function presentWebhookResult(result: UpsertResult): { status: number; body: { success: true; action: 'created' | 'updated'; id: string; externalId: string } } {
  return {
    status: result.action === 'created' ? 201 : 200,
    body: { success: true, action: result.action, id: result.id, externalId: result.externalId },
  };
}
