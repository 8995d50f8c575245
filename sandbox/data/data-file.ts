import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAjv } from "../../contracts/ajv.js";
import { checkDataFile } from "../../contracts/data-file.js";
import { AssopayError } from "../../core/errors.js";
import { readInputText } from "../../core/input-file.js";
import { contractsDir } from "../../core/paths.js";
import { parseYamlText, type YamlFile } from "../../core/yaml-file.js";

/** A data file as written (docs/sandbox.md, "Your own data"); `contracts/meta/sandbox-data.meta.json`. */
export interface DataFile {
  main?: { organization: string; form: string };
  clients?: { id: string; secret: string; rights?: "organization_admin"[] }[];
  organizations?: OrganizationEntry[];
}

export interface OrganizationEntry {
  slug: string;
  name?: string;
  type?: string;
  registeredOn?: string;
  verified?: boolean;
  city?: string;
  zipCode?: string;
  description?: string;
  logo?: string;
  updateDate?: string;
  forms?: FormEntry[];
}

export interface FormEntry {
  type: string;
  slug: string;
  title?: string;
  tiers?: TierEntry[];
  customFields?: FieldEntry[];
  extraOptions?: OptionEntry[];
  donation?: boolean;
  orders?: number | OrderEntry[];
  from?: string;
  to?: string;
}

export interface TierEntry {
  id?: number;
  label: string;
  description?: string;
  type?: string;
  price?: number;
  minAmount?: number;
  maxAmount?: number;
}

export interface FieldEntry {
  id?: number;
  label: string;
  type: string;
  required?: boolean;
  values?: string[];
  answers?: string[];
}

export interface OptionEntry {
  id?: number;
  label: string;
  description?: string;
  price: number;
  required?: boolean;
  customFields?: FieldEntry[];
}

export interface OrderEntry {
  id?: number;
  itemId?: number;
  date?: string;
  payer?: { firstName?: string; lastName?: string; email?: string; country?: string };
  tier?: string;
  amount?: number;
  options?: string[];
  answers?: Record<string, string>;
  donation?: number;
  payments?: PaymentEntry[];
}

export interface PaymentEntry {
  id?: number;
  amount?: number;
  state?: string;
  date?: string;
}

/** A data file read and checked, with the line of each of its values. */
export interface CheckedDataFile extends YamlFile {
  data: DataFile;
}

const WHAT = "sandbox data file";

/** The meta-schema of data files. */
export function dataFileSchemaPath(): string {
  return join(contractsDir(), "meta", "sandbox-data.meta.json");
}

/**
 * Reads a data file and checks every value: YAML syntax, then the meta-schema (types, the document's
 * enumerations), then what a schema cannot say (a form or tier named twice, an order naming a tier, an
 * option or a custom field its form lacks, `main` naming a form that is not there, payments that do not
 * add up to the order). The first problem is an `AssopayError` (`bad-input`, exit 2) with `file:line`.
 */
export function readDataFile(file: string): CheckedDataFile {
  return parseDataFile(readInputText(file, "bad-input", WHAT), file);
}

/** `readDataFile` on text already read (`file` names it in messages). */
export function parseDataFile(text: string, file: string): CheckedDataFile {
  const yaml = parseYamlText(text, file, { code: "bad-input", what: WHAT });
  const data = yaml.data ?? {};
  checkDataFile(
    createAjv(),
    { ...yaml, data },
    dataFileSchemaPath(),
    { code: "bad-input", what: WHAT, hint: "check the path given to --data" },
    `see docs/sandbox.md ("Your own data") and ${dataFileSchemaPath()}`,
    "data",
  );
  const checked = { ...yaml, data: data as DataFile };
  checkReferences(checked);
  return checked;
}

function refuse(yaml: YamlFile, path: (string | number)[], message: string, hint: string): never {
  throw new AssopayError("bad-input", `the ${WHAT} is invalid: ${message}`, {
    location: { file: yaml.file, line: yaml.lineOf(path) },
    hint,
  });
}

function checkReferences(yaml: CheckedDataFile): void {
  const { data } = yaml;
  const formNames = new Set<string>();
  const orderIds = new Set<number>();
  for (const [o, organization] of (data.organizations ?? []).entries()) {
    for (const [f, form] of (organization.forms ?? []).entries()) {
      const at = ["organizations", o, "forms", f];
      const name = `${organization.slug}/${form.type}/${form.slug}`.toLowerCase();
      if (formNames.has(name))
        refuse(yaml, at, `form ${form.type}/${form.slug} is declared twice`, "name each form once");
      formNames.add(name);
      const tiers = new Set((form.tiers ?? []).map((t) => t.label));
      const options = new Set((form.extraOptions ?? []).map((x) => x.label));
      const fields = new Set((form.customFields ?? []).map((x) => x.label));
      for (const [t, tier] of (form.tiers ?? []).entries()) {
        if (tier.maxAmount !== undefined && tier.maxAmount < (tier.minAmount ?? 0))
          refuse(yaml, [...at, "tiers", t, "maxAmount"], "maxAmount is below minAmount", "raise maxAmount");
      }
      if (!Array.isArray(form.orders)) continue;
      for (const [n, order] of form.orders.entries()) {
        const here = [...at, "orders", n];
        if (order.id !== undefined) {
          if (orderIds.has(order.id))
            refuse(yaml, [...here, "id"], `order id ${order.id} is used twice`, "give each order its own id");
          orderIds.add(order.id);
        }
        if (order.tier !== undefined && !tiers.has(order.tier))
          refuse(
            yaml,
            [...here, "tier"],
            `unknown tier "${order.tier}" (the form's tiers: ${[...tiers].join(", ") || "none declared"})`,
            "name a tier of this form by its label",
          );
        for (const [k, option] of (order.options ?? []).entries()) {
          if (!options.has(option))
            refuse(
              yaml,
              [...here, "options", k],
              `unknown extra option "${option}"`,
              "name an extra option of this form by its label",
            );
        }
        for (const field of Object.keys(order.answers ?? {})) {
          if (!fields.has(field))
            refuse(
              yaml,
              [...here, "answers", field],
              `unknown custom field "${field}"`,
              "answer a custom field of this form by its label",
            );
        }
      }
    }
  }
  if (data.main) {
    const wanted = `${data.main.organization}/${data.main.form}`.toLowerCase();
    if (!formNames.has(wanted))
      refuse(
        yaml,
        ["main", "form"],
        `main names an unknown form ${data.main.organization}/${data.main.form}`,
        "name a form declared in this file (organization slug and Type/slug)",
      );
  }
}

export type DataEnums = ReturnType<typeof dataEnums>;

/** The document's enumerations a data file accepts, read from its meta-schema. */
export function dataEnums() {
  const schema = JSON.parse(readFileSync(dataFileSchemaPath(), "utf8")) as {
    $defs: Record<string, { properties: Record<string, { enum?: string[] }> }>;
  };
  const values = (def: string, property: string) => schema.$defs[def]?.properties[property]?.enum ?? [];
  return {
    organizationType: values("organization", "type"),
    formType: values("form", "type"),
    tierType: values("tier", "type"),
    fieldType: values("customField", "type"),
    paymentState: values("payment", "state"),
  };
}
