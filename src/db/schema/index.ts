export * from './identity.js';
export * from './delivery.js';
