const MCP_SCOPE = "mcp:read";
const MCP_PATH = "/mcp";
const AUTHORIZE_PATH = "/mcp/authorize";
const APPROVE_PATH = "/mcp/authorize/approve";
const TOKEN_PATH = "/oauth/token";
const REGISTER_PATH = "/oauth/register";
const PRM_PATH = "/.well-known/oauth-protected-resource";
const ACCESS_TOKEN_TTL = 3600;
const REFRESH_TOKEN_TTL = 2592e3;
const INTERACTION_TTL = 600;
const mcpResource = (appUrl) => `${appUrl}${MCP_PATH}`;
const resourceMetadataUrl = (appUrl) => `${appUrl}${PRM_PATH}`;
const CLI_CLIENT_ID = "delivery-analytics-cli";
const DEVICE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";
const DEVICE_AUTHORIZATION_PATH = "/oauth/device";
const CLI_LOGIN_PATH = "/cli/login";
const CLI_APPROVE_PATH = "/cli/login/approve";
const CLI_SCOPE = "cli:key";
const DEVICE_CODE_TTL = 600;
const cliResource = (appUrl) => `${appUrl}/api`;
export {
  ACCESS_TOKEN_TTL,
  APPROVE_PATH,
  AUTHORIZE_PATH,
  CLI_APPROVE_PATH,
  CLI_CLIENT_ID,
  CLI_LOGIN_PATH,
  CLI_SCOPE,
  DEVICE_AUTHORIZATION_PATH,
  DEVICE_CODE_TTL,
  DEVICE_GRANT_TYPE,
  INTERACTION_TTL,
  MCP_PATH,
  MCP_SCOPE,
  PRM_PATH,
  REFRESH_TOKEN_TTL,
  REGISTER_PATH,
  TOKEN_PATH,
  cliResource,
  mcpResource,
  resourceMetadataUrl
};
