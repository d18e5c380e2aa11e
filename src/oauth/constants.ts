/** The OAuth layer's fixed names, in one place so metadata, checks and tests agree. */
export const MCP_SCOPE = 'mcp:read';
export const MCP_PATH = '/mcp';
export const AUTHORIZE_PATH = '/mcp/authorize';
export const APPROVE_PATH = '/mcp/authorize/approve';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const PRM_PATH = '/.well-known/oauth-protected-resource';

export const ACCESS_TOKEN_TTL = 3600;
export const REFRESH_TOKEN_TTL = 2_592_000;
/** The stored authorization request (oidc-provider Interaction) and its cookie. */
export const INTERACTION_TTL = 600;

/** The protected resource: also the audience of every access token we issue. */
export const mcpResource = (appUrl: string): string => `${appUrl}${MCP_PATH}`;

export const resourceMetadataUrl = (appUrl: string): string => `${appUrl}${PRM_PATH}`;

/**
 * The CLI login (docs/auth.md): the OAuth 2.0 device authorization grant (RFC 8628) for our own
 * command-line client, a first-party public client configured here rather than registered.
 */
export const CLI_CLIENT_ID = 'delivery-analytics-cli';
export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
export const DEVICE_AUTHORIZATION_PATH = '/oauth/device';
/** The verification URI the CLI shows; the approval page is ours (src/cliLogin/). */
export const CLI_LOGIN_PATH = '/cli/login';
export const CLI_APPROVE_PATH = '/cli/login/approve';
/** What the provider's short-lived token for the CLI may do: only be exchanged for an API key, at once. */
export const CLI_SCOPE = 'cli:key';
/** How long a started CLI login may wait for its approval. */
export const DEVICE_CODE_TTL = 600;
/** The device flow's own resource, so its provider token is never an /mcp token. */
export const cliResource = (appUrl: string): string => `${appUrl}/api`;
