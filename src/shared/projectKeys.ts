/**
 * A project key no project of the organisation has (issue 46 point 5): Settings › Teams asks before
 * creating it (docs/register.md "Teams API"). The server starts each such field error with this
 * text, and the web app offers "Add anyway" when it reads it.
 */
export const UNKNOWN_PROJECT = 'No project of this organisation has the key';
