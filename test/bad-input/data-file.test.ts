import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AssopayError, formatError, isAssopayError } from "../../core/errors.js";
import { buildSandboxData, readDataFile, startSandbox } from "../../sandbox/index.js";
import { runCli } from "../support/run-cli.js";

/** Writes a data file and runs `assopay sandbox --data` on it (a bad file never starts a server). */
async function sandboxWith(text: string): Promise<{ code: number; stderr: string; file: string }> {
  const file = join(mkdtempSync(join(tmpdir(), "assopay-data-")), "data.yaml");
  writeFileSync(file, text);
  const result = await runCli(["sandbox", "--port", "0", "--data", file]);
  return { code: result.code, stderr: result.stderr, file };
}

const FORM = `organizations:
  - slug: club
    forms:
      - type: Membership
        slug: adhesion
`;

describe("bad sandbox data files: file:line and exit 2", () => {
  it("refuses an unknown custom field type with file:line", async () => {
    const { code, stderr, file } = await sandboxWith(
      `${FORM}        customFields:\n          - label: Société\n            type: Textinput\n`,
    );
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:8:`);
    expect(stderr).toMatch(
      /customFields\[0\]\.type must be one of "Date", "TextInput".*got string "Textinput"/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses an amount written as text with file:line", async () => {
    const { code, stderr, file } = await sandboxWith(
      `${FORM}        tiers:\n          - label: Adhésion\n            price: "15 €"\n`,
    );
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:8:`);
    expect(stderr).toMatch(/tiers\[0\]\.price must be integer, got string "15 €"/);
  });

  it("refuses a reference to an unknown form with file:line", async () => {
    const { code, stderr, file } = await sandboxWith(
      `main: { organization: club, form: Event/gala }\n${FORM}`,
    );
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:1:`);
    expect(stderr).toMatch(/main names an unknown form club\/Event\/gala/);
  });

  it("refuses an order naming a tier its form lacks with file:line", async () => {
    const { code, stderr, file } = await sandboxWith(
      `${FORM}        tiers: [{ label: Adhésion, price: 2000 }]\n        orders:\n          - id: 5\n            tier: Soutien\n`,
    );
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:9:`);
    expect(stderr).toMatch(/unknown tier "Soutien" \(the form's tiers: Adhésion\)/);
  });

  it("refuses a YAML syntax error with file:line", async () => {
    const { code, stderr, file } = await sandboxWith(`${FORM}        title: [Adhésion\n        orders: 3\n`);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(`${file.replace(/[.\\/]/g, "\\$&")}:\\d+:\\d+: the sandbox data file is not valid YAML`),
    );
  });

  it("refuses payments that do not add up to their order with file:line", async () => {
    const { code, stderr, file } = await sandboxWith(
      `${FORM}        tiers: [{ label: Adhésion, price: 2000 }]\n        orders:\n          - payments: [{ amount: 1500 }]\n`,
    );
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:8:`);
    expect(stderr).toMatch(/add up to 1500, the order costs 2000/);
  });

  it("refuses data that would break the contract's schemas, at the form's line", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "assopay-data-")), "data.yaml");
    writeFileSync(
      file,
      `${FORM}        customFields: [{ label: Société, type: TextInput }]\n        orders: 2\n`,
    );
    const data = buildSandboxData(readDataFile(file), 1);
    const form = data.forms[0];
    if (!form) throw new Error("no form");
    // What a file cannot say, a program building the data can: a field without a type.
    const broken = { ...data, forms: [{ ...form, customFields: [{ ...form.customFields[0], type: "" }] }] };
    const error = await startSandbox({ port: 0, data: broken as typeof data }).catch((e: unknown) => e);
    expect(isAssopayError(error)).toBe(true);
    expect(formatError(error as AssopayError)).toMatch(
      new RegExp(
        `${file.replace(/[.\\/]/g, "\\$&")}:4: .*form Membership/adhesion would break the contract: public form\\.customFields\\[0\\]\\.type`,
      ),
    );
    const sandbox = await startSandbox({ port: 0, data });
    await sandbox.close();
  });

  it("accepts the legal variants: every field type, a Pwyw tier, payments that add up", async () => {
    const types = [
      "Date",
      "TextInput",
      "FreeText",
      "ChoiceList",
      "File",
      "YesNo",
      "Phone",
      "Zipcode",
      "Number",
    ];
    const fields = types
      .map(
        (type) =>
          `          - { label: "${type} field", type: ${type}${type === "ChoiceList" ? ", values: [A, B]" : ""} }`,
      )
      .join("\n");
    const file = join(mkdtempSync(join(tmpdir(), "assopay-data-")), "data.yaml");
    writeFileSync(
      file,
      `${FORM}        tiers: [{ label: Soutien, minAmount: 500, maxAmount: 5000 }]\n        customFields:\n${fields}\n        orders:\n          - { amount: 700, payments: [{ amount: 300 }, { amount: 400, state: Pending }] }\n`,
    );
    const data = buildSandboxData(readDataFile(file), 1);
    const order = data.forms[0]?.declared?.[0];
    expect(order?.payments.map((p) => [p.amount, p.state])).toEqual([
      [300, "Authorized"],
      [400, "Pending"],
    ]);
    expect(data.forms[0]?.customFields.map((f) => f.type)).toEqual(types);
    const result = await runCli(["sandbox", "--data", file, "--print-data", "-"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Zipcode field");
  });
});
