import { generateKeyPairSync, randomBytes } from "node:crypto";
import { chmod, readFile, rename, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createSecureContext, type SecureContext } from "node:tls";
import type { pki } from "node-forge";
import { AssopayError } from "../../core/errors.js";
import { makeDir } from "../../core/make-dir.js";

/**
 * node-forge, loaded as the CommonJS module it is (its exports are built at run time, so an ESM named
 * import finds none of them).
 */
const forge = createRequire(import.meta.url)("node-forge") as typeof import("node-forge");

/** The local certificate authority that signs the certificates of intercepted hosts. */
export interface CertificateAuthority {
  /** The CA certificate file (PEM): what `NODE_EXTRA_CA_CERTS`, `REQUESTS_CA_BUNDLE`, `SSL_CERT_FILE` name. */
  readonly certFile: string;
  readonly cert: pki.Certificate;
  readonly key: pki.rsa.PrivateKey;
  /** The CA certificate, PEM, sent after each leaf. */
  readonly certPem: string;
}

const CERT_FILE = "ca-cert.pem";
const KEY_FILE = "ca-key.pem";
const CA_NAME = "assopay-contract local recording CA";

/** A fresh RSA key, made by Node (fast, native), handed to forge. */
function rsaKey(): { privateKey: pki.rsa.PrivateKey; publicKey: pki.rsa.PublicKey } {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = pair.privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const privateKey = forge.pki.privateKeyFromPem(pem);
  return { privateKey, publicKey: forge.pki.setRsaPublicKey(privateKey.n, privateKey.e) };
}

const DAY_MS = 24 * 3600 * 1000;

/** A certificate of `publicKey` (a positive serial number), valid from a day ago for `days`, signed by `signer`. */
function certificate(
  publicKey: pki.rsa.PublicKey,
  days: number,
  names: { subject: pki.CertificateField[]; issuer: pki.CertificateField[] },
  extensions: object[],
  signer: pki.rsa.PrivateKey,
): pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  const now = Date.now();
  cert.validity.notBefore = new Date(now - DAY_MS);
  cert.validity.notAfter = new Date(now + days * DAY_MS);
  cert.setSubject(names.subject);
  cert.setIssuer(names.issuer);
  cert.setExtensions(extensions);
  cert.sign(signer, forge.md.sha256.create());
  return cert;
}

function createCa(): { certPem: string; keyPem: string } {
  const { privateKey, publicKey } = rsaKey();
  const name = [
    { name: "commonName", value: CA_NAME },
    { name: "organizationName", value: "assopay-contract" },
  ];
  const extensions = [
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ];
  const cert = certificate(publicKey, 10 * 365, { subject: name, issuer: name }, extensions, privateKey);
  return { certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(privateKey) };
}

/** Gives the TLS context that presents a certificate for one host, signed by the CA. */
export type LeafIssuer = (host: string) => SecureContext;

/**
 * Issues leaf certificates for intercepted hosts: one key for all of them, one certificate per host
 * (made on first use, then kept for as long as the issuer lives), valid from a day ago for 30 days.
 *
 * @example
 * const contextFor = createLeafIssuer(await loadOrCreateCa(dir));
 * new TLSSocket(socket, { isServer: true, secureContext: contextFor("api.helloasso.com") });
 */
export function createLeafIssuer(ca: CertificateAuthority): LeafIssuer {
  const { privateKey, publicKey } = rsaKey();
  const keyPem = forge.pki.privateKeyToPem(privateKey);
  const contexts = new Map<string, SecureContext>();
  return (host) => {
    const known = contexts.get(host);
    if (known) return known;
    const names = { subject: [{ name: "commonName", value: host }], issuer: ca.cert.subject.attributes };
    const extensions = [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: [{ type: 2, value: host }] },
    ];
    const cert = certificate(publicKey, 30, names, extensions, ca.key);
    const context = createSecureContext({
      key: keyPem,
      cert: `${forge.pki.certificateToPem(cert)}${ca.certPem}`,
    });
    contexts.set(host, context);
    return context;
  };
}

/** Writes a file readable by its owner only, atomically (a reader never sees half of it). */
async function writePrivate(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(temporary, text, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Refuses a CA key others may read or change (a `ca-key.pem` left 0644): with it, anyone on the machine
 * could forge certificates the user's applications trust (`NODE_EXTRA_CA_CERTS`).
 */
async function checkKeyPrivate(keyFile: string): Promise<void> {
  const mode = (await stat(keyFile).catch(() => undefined))?.mode;
  if (mode === undefined || (mode & 0o077) === 0) return;
  const octal = (mode & 0o777).toString(8).padStart(4, "0");
  throw new AssopayError(
    "usage",
    `the recording CA's key ${keyFile} has mode ${octal}: others on this machine may read it, and forge certificates your applications trust`,
    {
      location: { file: keyFile },
      hint: `make it yours alone (chmod 600 ${keyFile}), or remove it and its certificate to have a new CA made`,
    },
  );
}

/**
 * The CA kept in `dir`, created on first use (key and certificate with mode 0600, the folder 0700).
 *
 * @example
 * const ca = await loadOrCreateCa(defaultCaDir(process.env));
 * console.log(`export NODE_EXTRA_CA_CERTS=${ca.certFile}`);
 */
export async function loadOrCreateCa(dir: string): Promise<CertificateAuthority> {
  const certFile = join(dir, CERT_FILE);
  const keyFile = join(dir, KEY_FILE);
  try {
    await makeDir(dir, 0o700);
  } catch (error) {
    throw new AssopayError("usage", `--ca-dir ${dir}: ${(error as Error).message}`, {
      hint: "give --ca-dir (or ASSOPAY_CA_DIR) a folder you can write to",
      cause: error,
    });
  }
  await checkKeyPrivate(keyFile);
  try {
    let certPem = await readIfThere(certFile);
    let keyPem = await readIfThere(keyFile);
    if (certPem === undefined || keyPem === undefined) {
      ({ certPem, keyPem } = createCa());
      await writePrivate(keyFile, keyPem);
      await writePrivate(certFile, certPem);
    }
    const cert = forge.pki.certificateFromPem(certPem);
    const key = forge.pki.privateKeyFromPem(keyPem);
    if ((cert.publicKey as pki.rsa.PublicKey).n.compareTo(key.n) !== 0) {
      throw new Error(`${keyFile} is not the key of ${certFile}`);
    }
    return Object.freeze({ certFile, cert, key, certPem });
  } catch (error) {
    throw new AssopayError(
      "usage",
      `the recording CA in ${dir} cannot be used: ${(error as Error).message}`,
      {
        hint: `remove ${dir} to have a new CA made, or choose another folder with --ca-dir`,
        cause: error,
      },
    );
  }
}
