import type { Config } from './config/index.js';

export const PRODUCT = 'delivery-analytics';
/** The oldest CLI/client release that still agrees with this server's API. */
export const MINIMUM_CLIENT_VERSION = '0.1.0';

export function versionDocument(config: Pick<Config, 'releaseVersion'>) {
  return {
    product: PRODUCT,
    version: config.releaseVersion,
    minimumClientVersion: MINIMUM_CLIENT_VERSION,
    runtime: `node ${process.version}`,
  };
}
