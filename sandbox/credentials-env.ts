/** The ready-made credentials and names printed on start. */
export interface SandboxCredentials {
  /** A client whose tokens carry `organization_admin` (order detail, attached files). */
  admin: { clientId: string; clientSecret: string };
  /** A client whose tokens carry no right beyond reading. */
  reader: { clientId: string; clientSecret: string };
  organizationSlug: string;
  formType: string;
  formSlug: string;
}

/**
 * The sandbox's ready-made credentials as the `ASSOPAY_*` environment variables that `assopay verify`
 * reads and `assopay gate` exports to the command it runs.
 *
 * @example
 * spawn("node", ["sdk-example.mjs"], { env: { ...process.env, ASSOPAY_BASE_URL: sandbox.url, ...credentialsEnv(sandbox.credentials) } });
 */
export function credentialsEnv(c: SandboxCredentials): Record<string, string> {
  return {
    ASSOPAY_CLIENT_ID: c.reader.clientId,
    ASSOPAY_CLIENT_SECRET: c.reader.clientSecret,
    ASSOPAY_ADMIN_CLIENT_ID: c.admin.clientId,
    ASSOPAY_ADMIN_CLIENT_SECRET: c.admin.clientSecret,
    ASSOPAY_ORG: c.organizationSlug,
    ASSOPAY_FORM_TYPE: c.formType,
    ASSOPAY_FORM_SLUG: c.formSlug,
  };
}
