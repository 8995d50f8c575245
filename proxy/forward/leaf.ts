import { createSecureContext, type SecureContext } from "node:tls";
import { type CertificateAuthority, rsaKey, serialNumber } from "./ca.js";
import { forge } from "./forge.js";

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
    const cert = forge.pki.createCertificate();
    cert.publicKey = publicKey;
    cert.serialNumber = serialNumber();
    const now = Date.now();
    cert.validity.notBefore = new Date(now - 24 * 3600 * 1000);
    cert.validity.notAfter = new Date(now + 30 * 24 * 3600 * 1000);
    cert.setSubject([{ name: "commonName", value: host }]);
    cert.setIssuer(ca.cert.subject.attributes);
    cert.setExtensions([
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: [{ type: 2, value: host }] },
    ]);
    cert.sign(ca.key, forge.md.sha256.create());
    const context = createSecureContext({
      key: keyPem,
      cert: `${forge.pki.certificateToPem(cert)}${ca.certPem}`,
    });
    contexts.set(host, context);
    return context;
  };
}
