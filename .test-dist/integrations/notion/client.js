import { APIResponseError, Client, LogLevel } from "@notionhq/client";
function notionClient(config, auth) {
  return new Client({ auth, baseUrl: config.vendorUrls.notionApi, retry: false, timeoutMs: 15e3, logLevel: LogLevel.ERROR, logger: () => {
  } });
}
function notionErrorCode(error) {
  return APIResponseError.isAPIResponseError(error) ? error.code : error.code ?? "request failed";
}
const sameNotionId = (a, b) => a.replace(/-/g, "").toLowerCase() === b.replace(/-/g, "").toLowerCase();
export {
  notionClient,
  notionErrorCode,
  sameNotionId
};
