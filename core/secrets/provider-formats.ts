import { ACCESS_TOKEN_FORMATS } from "./access-token-formats.js";
import { rep, type SecretFormat } from "./shape.js";
import { WEBHOOK_FORMATS } from "./webhook-formats.js";

/**
 * Secrets known by a prefix their provider publishes, each written here from the provider's own
 * documentation of its keys and tokens. Every one starts with (or holds) a literal of `literals`: the
 * recorder's one-pass scan looks for those, and `FORMAT_CANDIDATE` is built from them.
 */
export interface ProviderFormat extends SecretFormat {
  readonly literals: readonly string[];
}

const HEX = "0a1b2c3d4e5f6789";

export const PROVIDER_FORMATS: readonly ProviderFormat[] = Object.freeze(
  [
    {
      id: "stripe-key",
      // Secret (sk_) and restricted (rk_) keys, live or test mode; webhook signing secrets (whsec_).
      pattern: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9+/]{24,100})\b/g,
      literals: ["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
      example: `sk_${"live"}_${rep("51HxYz", 40)}`,
    },
    {
      id: "google-api-key",
      pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g,
      literals: ["AIza"],
      example: `AI${"za"}${rep("Sy9-x_", 35)}`,
    },
    {
      id: "google-oauth-access-token",
      pattern: /\bya29\.[\w-]{20,2000}/g,
      literals: ["ya29."],
      example: `ya${"29"}.${rep("a0AfB_x-", 120)}`,
    },
    {
      // Personal, OAuth application, deploy, runner, CI/CD job, trigger, feed, mail, agent, SCIM and
      // feature-flag tokens: GitLab's documented prefixes.
      id: "gitlab-token",
      pattern: /\bgl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-[\w-]{20,300}/g,
      literals: [
        "glpat-",
        "gloas-",
        "gldt-",
        "glrt-",
        "glcbt-",
        "glptt-",
        "glft-",
        "glimt-",
        "glagent-",
        "glsoat-",
        "glffct-",
      ],
      example: `gl${"pat"}-${rep("xY7_z", 20)}`,
    },
    {
      // Project, service-account and admin keys, which do not all carry the preset's marker.
      id: "openai-project-key",
      pattern: /\bsk-(?:proj|svcacct|admin)-[\w-]{20,300}/g,
      literals: ["sk-proj-", "sk-svcacct-", "sk-admin-"],
      example: `sk-${"svcacct"}-${rep("Ab9-", 60)}`,
    },
    {
      id: "hugging-face-token",
      pattern: /\bhf_[A-Za-z0-9]{30,64}\b/g,
      literals: ["hf_"],
      example: `h${"f"}_${rep("AbCdEfGh", 34)}`,
    },
    {
      id: "pypi-token",
      // A macaroon whose first bytes say "pypi.org".
      pattern: /\bpypi-AgEIcHlwaS5vcmc[\w-]{50,1000}/g,
      literals: ["pypi-AgEIcHlwaS5vcmc"],
      example: `py${"pi"}-AgEIcHlwaS5vcmc${rep("CJ9x-_", 70)}`,
    },
    {
      id: "rubygems-key",
      pattern: /\brubygems_[a-f0-9]{48}\b/g,
      literals: ["rubygems_"],
      example: `ruby${"gems"}_${rep(HEX, 48)}`,
    },
    {
      id: "doppler-token",
      pattern: /\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}\b/g,
      literals: ["dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."],
      example: `dp.${"pt"}.${rep("Xy8Zw7Vu", 43)}`,
    },
    {
      id: "hashicorp-vault-token",
      pattern: /\bhv[sbr]\.[\w-]{24,400}/g,
      literals: ["hvs.", "hvb.", "hvr."],
      example: `hv${"s"}.${rep("CAESIJ_x-9", 90)}`,
    },
    {
      // Storage and Service Bus connection strings: the key after `AccountKey=` or `SharedAccessKey=`.
      id: "azure-connection-key",
      pattern: /\b(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{20,200}={0,2})/g,
      literals: ["AccountKey=", "SharedAccessKey="],
      example: `DefaultEndpointsProtocol=https;AccountName=acct;Account${"Key"}=${rep("Zm9v+Ym/Fy", 86)}==`,
    },
    {
      // Entra ID (Azure AD) client secrets: three characters, a digit, `Q~`, then 31 to 34 more.
      id: "azure-client-secret",
      pattern: /(?<![\w~.-])[\w~.]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])/g,
      literals: ["Q~"],
      example: `abc8${"Q~"}${rep("Xy.9_z~", 34)}`,
    },
    {
      id: "digitalocean-token",
      pattern: /\bdo[por]_v1_[a-f0-9]{64}\b/g,
      literals: ["dop_v1_", "doo_v1_", "dor_v1_"],
      example: `do${"p"}_v1_${rep(HEX, 64)}`,
    },
    {
      id: "alibaba-access-key-id",
      pattern: /\bLTAI[A-Za-z0-9]{12,20}\b/g,
      literals: ["LTAI"],
      example: `LT${"AI"}${rep("5tQx9Yz", 20)}`,
    },
    {
      id: "heroku-key",
      pattern: /\bHRKU-[\w-]{60}\b/g,
      literals: ["HRKU-"],
      example: `HR${"KU"}-${rep("AAaB9_-", 60)}`,
    },
    {
      id: "databricks-token",
      pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g,
      literals: ["dapi"],
      example: `da${"pi"}${rep(HEX, 32)}`,
    },
    {
      id: "atlassian-api-token",
      pattern: /\bATATT3[\w=-]{150,300}/g,
      literals: ["ATATT3"],
      example: `ATA${"TT3"}${rep("xFfGF0_Zy=-", 190)}`,
    },
    {
      id: "sentry-token",
      pattern: /\bsntry[su]_[\w+/=]{40,400}/g,
      literals: ["sntrys_", "sntryu_"],
      example: `sntr${"ys"}_${rep("eyJpYXQiOjE3", 120)}`,
    },
    {
      id: "grafana-token",
      pattern: /\b(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}\b)/g,
      literals: ["glc_", "glsa_"],
      example: `gl${"sa"}_${rep("Ab12Cd34", 32)}_${rep(HEX, 8)}`,
    },
    {
      id: "new-relic-key",
      pattern: /\bNRAK-[A-Z0-9]{27}\b/g,
      literals: ["NRAK-"],
      example: `NR${"AK"}-${rep("X9Y8Z7", 27)}`,
    },
    {
      id: "postman-key",
      pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g,
      literals: ["PMAK-"],
      example: `PM${"AK"}-${rep(HEX, 24)}-${rep(HEX, 34)}`,
    },
    {
      id: "supabase-token",
      pattern: /\bsbp_[a-f0-9]{40}\b/g,
      literals: ["sbp_"],
      example: `sb${"p"}_${rep(HEX, 40)}`,
    },
    {
      id: "pulumi-token",
      pattern: /\bpul-[a-f0-9]{40}\b/g,
      literals: ["pul-"],
      example: `pu${"l"}-${rep(HEX, 40)}`,
    },
    {
      id: "planetscale-token",
      pattern: /\bpscale_(?:tkn|pw|oauth)_[\w.-]{32,64}/g,
      literals: ["pscale_"],
      example: `pscale_${"tkn"}_${rep("aB3-x.Y", 43)}`,
    },
    {
      id: "figma-token",
      pattern: /\bfigd_[\w-]{40,100}/g,
      literals: ["figd_"],
      example: `fig${"d"}_${rep("Qw9-Er_", 40)}`,
    },
    {
      id: "netlify-token",
      pattern: /\bnfp_[A-Za-z0-9]{36,40}\b/g,
      literals: ["nfp_"],
      example: `nf${"p"}_${rep("Lm4Np5", 36)}`,
    },
    {
      id: "fly-token",
      pattern: /\bfo1_[\w-]{43}\b/g,
      literals: ["fo1_"],
      example: `fo${"1"}_${rep("Gh7-Jk_", 43)}`,
    },
    {
      id: "notion-token",
      pattern: /\bntn_[A-Za-z0-9]{40,50}\b/g,
      literals: ["ntn_"],
      example: `nt${"n"}_${rep("Rs2Tu3", 46)}`,
    },
    {
      id: "brevo-key",
      pattern: /\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b/g,
      literals: ["xkeysib-"],
      example: `xkey${"sib"}-${rep(HEX, 64)}-${rep("Ab1Cd2", 16)}`,
    },
    {
      id: "square-token",
      pattern: /\bsq0(?:atp|csp)-[\w-]{22,43}/g,
      literals: ["sq0atp-", "sq0csp-"],
      example: `sq0${"atp"}-${rep("Yz8-_Wx", 22)}`,
    },
    {
      id: "telegram-bot-token",
      // The bot's numeric id, a colon, then `AA` and 33 more.
      pattern: /\b\d{8,10}:AA[\w-]{33}\b/g,
      literals: [":AA"],
      example: `123456789:A${"A"}${rep("Hq_7x-", 33)}`,
    },
    {
      id: "age-secret-key",
      pattern: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g,
      literals: ["AGE-SECRET-KEY-1"],
      example: `AGE-${"SECRET"}-KEY-1${rep("QPZRY9X8GF2TVDW0S3JN", 58)}`,
    },
    {
      // Bitbucket app passwords: Atlassian's `ATBB` prefix, then 32 letters and digits.
      id: "bitbucket-app-password",
      pattern: /\bATBB[A-Za-z0-9_=.-]{32,64}\b/g,
      literals: ["ATBB"],
      example: `AT${"BB"}${rep("x7Kq2MzP", 32)}`,
    },
    {
      // JFrog API keys (`AKCp`, then 69 letters and digits) and reference tokens (`cmVmdGtu`, "reftkn").
      id: "jfrog-token",
      pattern: /\b(?:AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{50,100})\b/g,
      literals: ["AKCp", "cmVmdGtuOjAxOj"],
      example: `AK${"Cp"}${rep("8kGz3QwX", 69)}`,
    },
    {
      // EasyPost production and test API keys.
      id: "easypost-key",
      pattern: /\bEZ[AT]K[A-Za-z0-9]{54}\b/g,
      literals: ["EZAK", "EZTK"],
      example: `EZ${"AK"}${rep("a9Bc8De7", 54)}`,
    },
    {
      // HubSpot private app access tokens: `pat-`, the account's region, then a UUID.
      id: "hubspot-token",
      pattern: /\bpat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g,
      literals: ["pat-na", "pat-eu", "pat-ap"],
      example: `pat-${"na1"}-${rep("0a1b2c3d", 8)}-${rep("4e5f", 4)}-${rep("6789", 4)}-${rep("ab12", 4)}-${rep("cd34ef", 12)}`,
    },
    {
      // Terraform Cloud and Enterprise API tokens: 14 characters, `.atlasv1.`, then 60 or more.
      id: "terraform-cloud-token",
      pattern: /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}\b/g,
      literals: [".atlasv1."],
      example: `${rep("Zq8Xy1", 14)}.${"atlasv1"}.${rep("Hj3-Kl9_", 67)}`,
    },
    {
      // NuGet API keys: `oy2` and 43 lower-case letters and digits.
      id: "nuget-key",
      pattern: /\boy2[a-z0-9]{43}\b/g,
      literals: ["oy2"],
      example: `oy${"2"}${rep("k7m3p9q1", 43)}`,
    },
    {
      // The password of a connection string (`Server=…;User Id=…;Password=…;`), whatever the driver: the
      // keywords ADO.NET's and ODBC's documentation give.
      id: "connection-string-password",
      pattern: /\b(?:Password|PASSWORD|password|Pwd|PWD|pwd)=(?<secret>[^;&"'\s<>]{1,256})/g,
      literals: ["Password=", "PASSWORD=", "password=", "Pwd=", "PWD=", "pwd="],
      example: `Server=db;Uid=app;P${"wd"}=${"Tr0ub4dor-3x"};`,
    },
    ...WEBHOOK_FORMATS,
    ...ACCESS_TOKEN_FORMATS,
  ].map(
    (format): ProviderFormat => ({
      ...format,
      origin: "provider-documentation",
      secret: format.pattern.source.includes("(?<secret>") ? 1 : 0,
    }),
  ),
);

/** Every literal of the formats above, for the recorder's scan and `FORMAT_CANDIDATE`. */
export const PROVIDER_LITERALS: readonly string[] = Object.freeze(
  PROVIDER_FORMATS.flatMap((f) => f.literals),
);
