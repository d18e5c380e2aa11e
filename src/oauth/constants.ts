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
