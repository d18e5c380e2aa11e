/** The one entry to oidc-provider: its Node 20 runtime notice is kept off stderr (see quietRuntimeNotice.ts). */
import { restoreWarn } from './quietRuntimeNotice.js';
export * from 'oidc-provider';

restoreWarn();
