import { describe, expect, it } from "vitest";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { recorder, text } from "./support/redaction.js";

/**
 * Bodies that carry secrets in their structure rather than by a pair: a CSV or TSV table by the header of
 * its column (the service's listings and exports answer CSV), an HTML page by the element that names
 * them (a hidden input, a meta tag).
 */
describe("tables: a column headed by a secret's name", () => {
  it("replaces every cell of the column, whatever the separator, quoting or line ends", () => {
    const tables: [string, string, string[]][] = [
      [
        "text/csv",
        "email,password\r\na@b.example,csv-pw-1\r\nc@d.example,csv-pw-2\r\n",
        ["csv-pw-1", "csv-pw-2"],
      ],
      ["text/csv; charset=utf-8", 'Nom;"API Key";Montant\n"Martin";"csv-key-1";15,00\n', ["csv-key-1"]],
      ["text/tab-separated-values", "id\taccess_token\n1\ttsv-token-1\n", ["tsv-token-1"]],
      ["text/csv", 'id,client_secret\n1,"quoted ""odd"" csv-secret-1"\n', ['quoted ""odd"" csv-secret-1']],
    ];
    for (const [type, body, secrets] of tables) {
      const r = recorder();
      const out = text(body, type, r);
      for (const secret of secrets) {
        expect(out, body).not.toContain(secret);
        expect(out, body).toContain(placeholderFor(secret.replaceAll('""', '"')));
      }
      expect(out.split(/\r?\n/)[0], body).toBe(body.split(/\r?\n/)[0]);
      expect(out.split(/\r?\n/).length, body).toBe(body.split(/\r?\n/).length);
    }
  });

  it("keeps a table without such a column byte for byte, and every other column of one with it", () => {
    const orders =
      'Numéro;Date;Montant;Statut\n10000049;"2025-03-01 10:00";15,00;Validé\n10000050;;0,00;"Remboursé"\n';
    expect(text(orders, "text/csv", recorder())).toBe(orders);
    const mixed = 'id,token_type,password,note\n7,bearer,hide-me-1,"a, b"\n';
    const out = text(mixed, "text/csv", recorder());
    expect(out).toBe(`id,token_type,password,note\n7,bearer,${placeholderFor("hide-me-1")},"a, b"\n`);
  });
});

describe("pages: an element that names a secret", () => {
  it("replaces the value of a hidden input and the content of a meta tag named like a secret, and an attribute so named", () => {
    const page = [
      '<form><input type="hidden" name="csrf_token" value="html-csrf-1"><input name=\'api_key\' value=\'html-key-1\'></form>',
      '<meta name="csrf-token" content="html-meta-1"><div data-api-key="html-attr-1"></div>',
    ].join("\n");
    const out = text(page, "text/html; charset=utf-8", recorder());
    for (const secret of ["html-csrf-1", "html-key-1", "html-meta-1", "html-attr-1"]) {
      expect(out).not.toContain(secret);
      expect(out).toContain(placeholderFor(secret));
    }
    expect(out).toContain('<input type="hidden" name="csrf_token" value="');
  });

  it("keeps every other element: names of plain fields, the checkout's own inputs, text that speaks of tokens", () => {
    const page = [
      '<form method="post"><input type="hidden" name="checkoutIntentId" value="30674">',
      '<input name="cardNumber" placeholder="4242 …"><input name="email" value="jeanne@mail.example"></form>',
      '<meta name="viewport" content="width=device-width"><p id="token-help">Your token value expires</p>',
    ].join("\n");
    expect(text(page, "text/html", recorder())).toBe(page);
  });
});
