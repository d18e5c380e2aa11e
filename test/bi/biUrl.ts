/** The URL a BI tool is given for a credential on a test database: its BI database, the role's name and password. */
export function biUrl(databaseUrl: string, user: string, password: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}_bi`;
  url.username = user;
  url.password = password;
  return url.toString();
}
