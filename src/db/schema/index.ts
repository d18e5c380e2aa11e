export * from './identity.js';
export * from './delivery.js';
export * from './jobs.js';
