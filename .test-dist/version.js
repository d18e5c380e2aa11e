const PRODUCT = "delivery-analytics";
const MINIMUM_CLIENT_VERSION = "0.1.0";
function versionDocument(config) {
  return {
    product: PRODUCT,
    version: config.releaseVersion,
    minimumClientVersion: MINIMUM_CLIENT_VERSION,
    runtime: `node ${process.version}`
  };
}
export {
  MINIMUM_CLIENT_VERSION,
  PRODUCT,
  versionDocument
};
