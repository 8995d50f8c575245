/**
 * Secrets known by their shape, wherever they appear, named or not. The one table of them: the recorder
 * (cassettes, its log lines) and every report (`text.ts`) read it, nothing else lists shapes.
 *
 * Where the shapes come from. Most follow the rules of secretlint's recommended preset
 * (`@secretlint/secretlint-rule-preset-recommend` 13.x: its rules privatekey, github, aws, slack, npm,
 * sendgrid, shopify, openai, anthropic, linear, 1password, basicauth and database-connection-string, the
 * last two as a URL's password; gcp's service-account keys are a PEM block under `private_key`), each
 * written here from the token format the rule's provider publishes, not copied from the rule. The
 * shapes known from a provider's own documentation of its key prefixes (Stripe, Google, GitLab …) are in
 * `PROVIDER_FORMATS` (below), each with its literal words; two come from the standards (JWT, RFC 7519;
 * `Bearer`, RFC 6750). A shape added to either list is redacted everywhere.
 */
import { buildAutomaton, holdsWordWhere, PLAIN, ROW, wordBytes } from "./automaton.js";
import { holdsPrefixedToken, looksRandom, PREFIXED } from "./token-shape.js";

const HEX = "0a1b2c3d4e5f6789";

/**
 * The origins of the shapes: secretlint's recommended preset, a provider's own documentation, a standard,
 * or the shape most tokens share (a prefix and a random body: `token-shape.ts`).
 */
type FormatOrigin = "secretlint-preset-recommend" | "provider-documentation" | "standard" | "token-shape";

/** One shape: `pattern` finds it (global); the secret is capture group `secret` (the whole match if 0). */
export interface SecretFormat {
  readonly id: string;
  readonly origin: FormatOrigin;
  readonly pattern: RegExp;
  readonly secret: number;
  /**
   * A further test of what `pattern` found (its group `secret` where it has one, a token's random body,
   * else the whole match); without it, every match is a secret.
   */
  readonly accept?: (secret: string) => boolean;
  /**
   * Words every match holds, as written (its prefixes, their classes spelled out): the automaton finds
   * them (`FORMAT_CANDIDATE`, the recorder's scan). None where a checked word, `bearer` or the token
   * shape stands for the format.
   */
  readonly literals: readonly string[];
  /** A value the format's own example gives, for the tests (assembled, so no scanner flags the file). */
  readonly example: string;
}

/** `chars` repeated to exactly `n` characters: the body of a format's example. */
const rep = (chars: string, n: number) => chars.repeat(Math.ceil(n / chars.length)).slice(0, n);

/** The characters a pattern starts with that it takes as written (after `\b`): `\bnpm_[…]` gives `npm_`. */
const LEADING_LITERAL = /^(?:\\b)?((?:[\w~=:-]|\\[.$/])+)(?![?*+{])/;

/**
 * Formats of one origin, each reading its secret from the group `secret` where its pattern names one
 * (`secret: 1`), else from the whole match (`secret: 0`); a format that lists no `literals` has the
 * characters its pattern starts with as written.
 */
function fromOrigin(
  origin: FormatOrigin,
  formats: readonly (Omit<SecretFormat, "origin" | "secret" | "literals"> & {
    literals?: readonly string[];
  })[],
): SecretFormat[] {
  return formats.map((format) => ({
    ...format,
    origin,
    secret: format.pattern.source.includes("(?<secret>") ? 1 : 0,
    literals:
      format.literals ??
      (LEADING_LITERAL.exec(format.pattern.source)?.slice(1) ?? []).map((word) => word.replace(/\\/g, "")),
  }));
}

/**
 * Secrets known by a prefix their provider publishes, each written here from the provider's own
 * documentation of its keys and tokens.
 */
const PROVIDER_FORMATS: readonly SecretFormat[] = Object.freeze(
  fromOrigin("provider-documentation", [
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
      example: `AI${"za"}${rep("Sy9-x_", 35)}`,
    },
    {
      id: "google-oauth-access-token",
      pattern: /\bya29\.[\w-]{20,2000}/g,
      example: `ya${"29"}.${rep("a0AfB_x-", 120)}`,
    },
    {
      // Personal, OAuth application, deploy, runner, CI/CD job, trigger, feed, mail, agent, SCIM and
      // feature-flag tokens: GitLab's documented prefixes.
      id: "gitlab-token",
      pattern: /\bgl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-[\w-]{20,300}/g,
      literals: ["pat", "oas", "dt", "rt", "cbt", "ptt", "ft", "imt", "agent", "soat", "ffct"].map(
        (k) => `gl${k}-`,
      ),
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
      example: `h${"f"}_${rep("AbCdEfGh", 34)}`,
    },
    {
      id: "pypi-token",
      // A macaroon whose first bytes say "pypi.org".
      pattern: /\bpypi-AgEIcHlwaS5vcmc[\w-]{50,1000}/g,
      example: `py${"pi"}-AgEIcHlwaS5vcmc${rep("CJ9x-_", 70)}`,
    },
    {
      id: "rubygems-key",
      pattern: /\brubygems_[a-f0-9]{48}\b/g,
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
      example: `LT${"AI"}${rep("5tQx9Yz", 20)}`,
    },
    {
      id: "heroku-key",
      pattern: /\bHRKU-[\w-]{60}\b/g,
      example: `HR${"KU"}-${rep("AAaB9_-", 60)}`,
    },
    {
      id: "databricks-token",
      pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g,
      example: `da${"pi"}${rep(HEX, 32)}`,
    },
    {
      id: "atlassian-api-token",
      pattern: /\bATATT3[\w=-]{150,300}/g,
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
      example: `NR${"AK"}-${rep("X9Y8Z7", 27)}`,
    },
    {
      id: "postman-key",
      pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g,
      example: `PM${"AK"}-${rep(HEX, 24)}-${rep(HEX, 34)}`,
    },
    {
      id: "supabase-token",
      pattern: /\bsbp_[a-f0-9]{40}\b/g,
      example: `sb${"p"}_${rep(HEX, 40)}`,
    },
    {
      id: "pulumi-token",
      pattern: /\bpul-[a-f0-9]{40}\b/g,
      example: `pu${"l"}-${rep(HEX, 40)}`,
    },
    {
      id: "planetscale-token",
      pattern: /\bpscale_(?:tkn|pw|oauth)_[\w.-]{32,64}/g,
      example: `pscale_${"tkn"}_${rep("aB3-x.Y", 43)}`,
    },
    {
      id: "figma-token",
      pattern: /\bfigd_[\w-]{40,100}/g,
      example: `fig${"d"}_${rep("Qw9-Er_", 40)}`,
    },
    {
      id: "netlify-token",
      pattern: /\bnfp_[A-Za-z0-9]{36,40}\b/g,
      example: `nf${"p"}_${rep("Lm4Np5", 36)}`,
    },
    {
      id: "fly-token",
      pattern: /\bfo1_[\w-]{43}\b/g,
      example: `fo${"1"}_${rep("Gh7-Jk_", 43)}`,
    },
    {
      id: "notion-token",
      pattern: /\bntn_[A-Za-z0-9]{40,50}\b/g,
      example: `nt${"n"}_${rep("Rs2Tu3", 46)}`,
    },
    {
      id: "brevo-key",
      pattern: /\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b/g,
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
      example: `AGE-${"SECRET"}-KEY-1${rep("QPZRY9X8GF2TVDW0S3JN", 58)}`,
    },
    {
      // Bitbucket app passwords: Atlassian's `ATBB` prefix, then 32 letters and digits.
      id: "bitbucket-app-password",
      pattern: /\bATBB[A-Za-z0-9_=.-]{32,64}\b/g,
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
    // Webhook URLs whose path is the secret: whoever holds one can post to the channel or start the flow.
    // Integrators point the service's notifications at them (a Zapier or Discord hook), so they travel in
    // request bodies. Each follows the URL its provider documents for incoming webhooks; the whole URL is
    // replaced, as Slack's is (`SECRET_FORMATS`).
    {
      id: "discord-webhook",
      pattern: /https:\/\/(?:canary\.|ptb\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/[\w-]{60,90}/g,
      literals: ["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"],
      example: `https://${"discord"}.com/api/webhooks/123456789012345678/${rep("aB3-_xY9", 68)}`,
    },
    {
      // Microsoft Teams incoming webhooks (Office 365 connectors).
      id: "teams-webhook",
      pattern:
        /https:\/\/[\w-]+\.webhook\.office\.com\/webhookb2\/[\w@-]{36,100}\/IncomingWebhook\/[0-9a-f]{32}\/[\w-]{36}(?:\/[\w-]{20,80})?/g,
      literals: [".webhook.office.com/webhookb2/"],
      example: `https://contoso.${"webhook"}.office.com/webhookb2/${rep("0a1b2c3d-", 36)}@${rep("4e5f6789-", 36)}/IncomingWebhook/${rep("0123456789abcdef", 32)}/${rep("89ab-cdef", 36)}`,
    },
    {
      // Zapier's catch hooks: an account number and a hook id.
      id: "zapier-webhook",
      pattern: /https:\/\/hooks\.zapier\.com\/hooks\/catch\/\d{4,12}\/[a-z0-9]{5,12}\/?/g,
      literals: ["hooks.zapier.com/hooks/catch/"],
      example: `https://hooks.${"zapier"}.com/hooks/catch/1234567/ab12cd3/`,
    },
    {
      // Mattermost (and Rocket.Chat's look-alike) incoming webhooks, on an association's own server: any
      // host, `/hooks/` and a 26-character id of lower-case letters and digits that reads as random.
      id: "mattermost-webhook",
      pattern: /https?:\/\/[\w.-]+(?::\d+)?(?:\/[\w.-]+)*\/hooks\/[a-z0-9]{26}(?![\w-])/g,
      literals: ["/hooks/"],
      accept: (url: string) => looksRandom(url.slice(-26)),
      example: `https://chat.example.org/${"hooks"}/${rep("k3m9x1q7w5", 26)}`,
    },
    // Access tokens of payment, messaging and social platforms an association's site is often wired to (a
    // shop's card payments, SMS reminders, a page that posts its events), each from the shape its provider
    // documents. Their prefixes run into the token without a separator, so the token shape
    // (`token-shape.ts`) does not see them.
    {
      // Square's production access tokens: `EAAA` and 60 more, not inside a base64 run (its sandbox and
      // OAuth prefixes, `sq0atp-` and `sq0csp-`, are `square-token` above).
      id: "square-access-token",
      pattern: /(?<![\w+/=-])EAAA[\w-]{60}(?![\w+/=-])/g,
      literals: ["EAA"],
      accept: looksRandom,
      example: `EA${"AA"}${rep("lB3xQ9zK7mW2pV5nR8-", 60)}`,
    },
    {
      // Braintree's gateway access tokens: environment, merchant id and a 32-digit hex key.
      id: "braintree-token",
      pattern: /\baccess_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}\b/g,
      literals: ["access_token$production$", "access_token$sandbox$"],
      example: `access_token$${"production"}$${rep("k7m3p9q1", 16)}$${rep(HEX, 32)}`,
    },
    {
      // Twilio API keys (SMS reminders): `SK` and 32 hex digits, in either case. `SK` is no literal word
      // (any base64 run holds it): it is a checked word (`CHECKED_WORDS`, below).
      id: "twilio-api-key",
      pattern: /(?<![\w])SK[0-9a-fA-F]{32}(?![\w])/g,
      literals: [],
      example: `S${"K"}${rep(HEX, 32)}`,
    },
    {
      // Mailchimp API keys (an association's newsletter): 32 hex digits and the data centre, `-us` and a
      // number.
      id: "mailchimp-api-key",
      pattern: /(?<![\w-])[0-9a-f]{32}-us\d{1,2}(?![\w-])/g,
      literals: [..."123456789"].map((digit) => `-us${digit}`),
      example: `${rep(HEX, 32)}-u${"s"}12`,
    },
    {
      // Okta API tokens (an association's single sign-on): `00` and 40 more of base64url, upper and lower
      // case and digits mixed (a slug or a padded number is not), sent as `Authorization: SSWS <token>`,
      // after a blank, a quote or a pair's `=` (`TOKEN_LEADS`). `00` is no literal word (any number holds
      // it): it is a checked word (`CHECKED_WORDS`, below).
      id: "okta-api-token",
      pattern: /(?<![^\s"'`=(,[>])00[\w-]{40}(?![\w-])/g,
      literals: [],
      accept: (token: string) => /[A-Z]/.test(token) && /[a-z]/.test(token) && /\d/.test(token.slice(2)),
      example: `0${"0"}${rep("Qk7xMv2Lp9Wn4Rt8Zb1C-", 40)}`,
    },
    {
      // Facebook (Meta) Graph API access tokens: `EAA` and a long base62 body that reads as random; not
      // the start of a base64 run (which goes on with `+`, `/` or `=`).
      id: "facebook-token",
      pattern: /(?<![\w+/=])EAA[A-Za-z0-9]{40,400}(?![\w+/=])/g,
      literals: ["EAA"],
      accept: looksRandom,
      example: `EA${"A"}CEdEose0cBA${rep("Zx8Yw7Vu6", 60)}`,
    },
  ]),
);

/** What may stand before an Okta token: a blank, a quote, or what ends a pair's name or a list's item. */
const TOKEN_LEADS = " \t\n\r\"'`=(,[>";

/**
 * Words that start a format's secret but are too common to make a text a candidate on their own (`://`
 * is in every URL, `SK` in any base64 run): where the automaton finds one, the patterns of the formats
 * it starts are tried right there, their look-behinds reading what stands before it. `leads`: the
 * characters that may stand before the word (the start of a text too), where the word is in too many
 * words of other kinds to be looked at after each (`00` ends every time of day, `:00`): the automaton
 * then finds each lead and the word together.
 */
const CHECKED_WORDS: readonly { word: string; formats: readonly string[]; leads?: string }[] = [
  { word: "://", formats: ["url-password", "url-token"] },
  { word: "SK", formats: ["twilio-api-key"] },
  { word: "00", formats: ["okta-api-token"], leads: TOKEN_LEADS },
];

export const SECRET_FORMATS: readonly SecretFormat[] = Object.freeze([
  ...fromOrigin("secretlint-preset-recommend", [
    {
      id: "private-key",
      // A PEM block of any private key kind (RSA, EC, OPENSSH, ENCRYPTED, PGP … BLOCK), in text or with
      // its line breaks escaped inside a JSON string.
      pattern:
        /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[\s\S]{1,16384}?-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/g,
      literals: ["PRIVATE KEY"],
      example: `-----BEGIN ${"RSA PRIVATE"} KEY-----\nMIIEow${rep("Ab3", 60)}\n-----END RSA PRIVATE KEY-----`,
    },
    {
      id: "github-token",
      // Classic tokens: ghp_ (personal), gho_ (OAuth), ghu_/ghs_ (app), ghr_ (refresh), 36+ characters.
      pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g,
      literals: [..."pousr"].map((c) => `gh${c}_`),
      example: `gh${"p"}_${rep("a1B2c3", 36)}`,
    },
    {
      id: "github-fine-grained-token",
      pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
      example: `github${"_pat"}_${rep("11AbCdEf", 82)}`,
    },
    {
      id: "aws-access-key-id",
      // Access key ids: a four-letter kind (AKIA long-term, ASIA temporary, …) and 16 more.
      pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
      literals: ["A3T", "AKIA", "ASIA", "ABIA", "ACCA"],
      example: `AK${"IA"}${rep("Q3ZX7W", 16)}`,
    },
    {
      id: "slack-token",
      pattern: /\bxox[abposr]-[0-9A-Za-z-]{10,250}/g,
      literals: [..."abposr"].map((c) => `xox${c}-`),
      example: `xo${"xb"}-1234567890-${rep("aBcD1", 24)}`,
    },
    {
      id: "slack-webhook",
      pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9+/_-]{20,200}/g,
      literals: ["hooks.slack.com"],
      example: `https://hooks.${"slack"}.com/services/T00000000/B00000000/${rep("XyZ9", 24)}`,
    },
    {
      id: "npm-token",
      pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
      example: `np${"m"}_${rep("Zx8Yw7", 36)}`,
    },
    {
      id: "sendgrid-key",
      pattern: /\bSG\.[\w-]{22}\.[\w-]{43}\b/g,
      example: `S${"G"}.${rep("aB1", 22)}.${rep("cD2", 43)}`,
    },
    {
      id: "shopify-token",
      pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g,
      literals: ["at", "ca", "pa", "ss"].map((k) => `shp${k}_`),
      example: `shp${"at"}_${rep("0a1b2c3d", 32)}`,
    },
    {
      id: "openai-key",
      // Keys carry the base64 of "openai" (T3BlbkFJ) in their middle.
      pattern: /\bsk-[A-Za-z0-9_-]{0,80}T3BlbkFJ[A-Za-z0-9_-]{16,200}/g,
      literals: ["T3BlbkFJ"],
      example: `sk-proj-${rep("Ab1", 20)}${"T3Blbk"}FJ${rep("Cd2", 20)}`,
    },
    {
      id: "anthropic-key",
      pattern: /\bsk-ant-(?:api|admin)\d\d-[\w-]{32,200}/g,
      example: `sk-${"ant"}-api03-${rep("Ef3_", 90)}`,
    },
    {
      id: "linear-key",
      pattern: /\blin_api_[A-Za-z0-9]{40}\b/g,
      example: `lin${"_api"}_${rep("Gh4Ij5", 40)}`,
    },
    {
      id: "1password-service-token",
      // Service account tokens: `ops_` and a base64 JSON document.
      pattern: /\bops_eyJ[\w+/=-]{50,2000}/g,
      example: `op${"s"}_eyJ${rep("zIjoiYWJj", 80)}`,
    },
    {
      id: "url-password",
      // The password of `scheme://user:password@host` (a broker URL, a database URL); the user is kept.
      // Anchored on `://` (a literal the engine finds fast); the scheme before it is not needed.
      pattern: /:\/\/[^\s/?#:@"'<>]{1,256}:(?<secret>[^\s/?#@"'<>]{1,256})(?=@[\w[])/g,
      literals: [],
      example: `https://ci:${"hunter2-broker"}@broker.example`,
    },
  ]),
  ...fromOrigin("standard", [
    {
      id: "url-token",
      // A token as a URL's whole userinfo (RFC 3986), no password after it: an error tracker's DSN
      // (`https://<key>@o1.ingest.example/1`), a git remote's `https://<token>@host/repo`. Only a body
      // that reads as random (`token-shape.ts`): `https://user@host` keeps its user.
      pattern: /:\/\/(?<secret>[\w-]{20,256})(?=@[\w[])/g,
      literals: [],
      accept: looksRandom,
      example: `https://${"0a1b2c3d4e5f6789"}${"9f8e7d6c5b4a3210"}@o1.ingest.example/1`,
    },
  ]),
  ...PROVIDER_FORMATS,
  ...fromOrigin("standard", [
    {
      id: "jwt",
      // Three base64url parts, the first two JSON objects (`eyJ` is `{"`).
      pattern: /eyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]*/g,
      example: `ey${"J"}hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${rep("sIg5", 43)}`,
    },
    {
      id: "bearer",
      // `Bearer <credential>` in text; the credential holds a digit (prose after "bearer" does not).
      pattern: /\bbearer\s+(?<secret>[\w.~+/-]*\d[\w.~+/-]*=*)/gi,
      literals: [],
      example: `Bearer ${"abc123def456"}`,
    },
  ]),
  // Last: the prefixed tokens no entry above names (a prefix and a random body, `token-shape.ts`). The
  // whole token is replaced, prefix and all: a token the recorder has learned under a secret's name
  // (`access_token`) is the whole of it, and must get the same placeholder wherever else it appears.
  {
    id: "prefixed-random-token",
    origin: "token-shape",
    pattern: PREFIXED,
    secret: 0,
    literals: [],
    accept: looksRandom,
    example: `tk-${"eu"}-${"a1B2c3D4e5F6".repeat(3)}`,
  },
]);

/**
 * The formats' literal words and the checked words (each after each of its leads, if it has them), found in
 * one pass whatever their number: by `FORMAT_CANDIDATE` over text, by the recorder's body scan
 * (`proxy/redaction/scan.ts`) over bytes. Tags: 1 a literal word, 2 + i the checked word i (a smaller
 * one wins where two words end); `formatWordAt` tests each.
 */
export const FORMAT_WORD_AUTOMATON = buildAutomaton(
  [
    ...SECRET_FORMATS.flatMap((f) => f.literals).map((word) => ({ bytes: wordBytes(word), tag: 1 })),
    ...CHECKED_WORDS.flatMap(({ word, leads }, i) =>
      (leads ? [...leads] : [""]).map((lead) => ({ bytes: wordBytes(lead + word), tag: 2 + i })),
    ),
  ],
  PLAIN,
);

/** Where the automaton starts: as after a line's end, so that a checked word's lead is met at the start. */
export const FORMAT_WORD_START = (FORMAT_WORD_AUTOMATON.next[0x0a] as number) & ROW;

/** Each checked word's formats, their patterns made sticky (tried where the word starts). */
const CHECKED = CHECKED_WORDS.map(({ word, formats }) => ({
  length: word.length,
  formats: SECRET_FORMATS.filter((f) => formats.includes(f.id)).map((f) => ({
    sticky: new RegExp(f.pattern.source, "y"),
    accept: f.accept,
  })),
}));

/**
 * Whether the word the automaton found ending at `end` of `text` (its tag `tag`) is a format's candidate:
 * a literal word is; a checked word when one of its formats' patterns (and `accept`) takes what starts
 * there.
 */
export function formatWordAt(text: string, tag: number, end: number): boolean {
  if (tag === 1) return true;
  const checked = CHECKED[tag - 2];
  return (
    checked?.formats.some(({ sticky, accept }) => {
      sticky.lastIndex = end + 1 - checked.length;
      const found = sticky.exec(text);
      return found !== null && (accept === undefined || accept(found.groups?.secret ?? found[0]));
    }) ?? false
  );
}

/** The candidate that is not a word as written: `bearer` in any case, and a blank. */
const BEARER = /[Bb][Ee][Aa][Rr][Ee][Rr]\s/;

/**
 * A necessary condition of every shape above: a text it does not match holds none of them. One pass of
 * the words' automaton (whatever their number; a URL password where `://` is), then `bearer` (in any
 * case, letter by letter), then a prefixed token with a random body. The tests check that every format's
 * example matches it.
 */
export const FORMAT_CANDIDATE: { test(text: string): boolean } = Object.freeze({
  test: (text: string) =>
    holdsWordWhere(FORMAT_WORD_AUTOMATON, text, formatWordAt, FORMAT_WORD_START) ||
    BEARER.test(text) ||
    holdsPrefixedToken(text),
});

/**
 * `text` with every secret of a known shape replaced by `replace(secret)`. Text without any candidate is
 * returned as it is, at the cost of one pass of `FORMAT_CANDIDATE`.
 *
 * @example redactFormats("push with ghp_… now", () => "<x>") // "push with <x> now"
 */
export function redactFormats(text: string, replace: (secret: string) => string): string {
  if (!FORMAT_CANDIDATE.test(text)) return text;
  let out = text;
  for (const format of SECRET_FORMATS) {
    if (out.search(format.pattern) < 0) continue;
    out = out.replace(format.pattern, (found: string, ...rest: unknown[]) => {
      const last = rest[rest.length - 1];
      const group =
        typeof last === "object" && last !== null ? (last as { secret?: string }).secret : undefined;
      // `accept` judges the secret group where there is one (a token's body), else the whole match.
      if (format.accept && !format.accept(group ?? found)) return found;
      if (format.secret === 0) return replace(found);
      // The secret group ends the match: what precedes it (a scheme and user, `Bearer `) is kept.
      const secret = group ?? "";
      return secret === "" ? found : found.slice(0, found.length - secret.length) + replace(secret);
    });
  }
  return out;
}
