import type { Contract } from "../../contracts/index.js";
import { AssopayError } from "../../core/errors.js";
import { apiViews } from "../core.js";
import type { Store } from "../store.js";
import type { FormDef } from "./model.js";
import { listEntryView, orderView, publicFormView, type Shapes } from "./views.js";

/**
 * Checks what the declared data makes against the contract before the sandbox serves it: each declared
 * form's public form, and its first order as an items-listing entry and as order detail, validate
 * against the contract's schemas (in the shapes served). A failure is an `AssopayError` (`bad-input`,
 * exit 2) at the form's place in its data file.
 */
export function checkDataAgainstContract(contract: Contract, store: Store, shapes: Shapes): void {
  // The views a running sandbox without a fault serves.
  const ctx = apiViews({ contract, baseUrl: "http://127.0.0.1", fault: undefined, shapes });
  const routes = contract.routes;
  const schemaOf = (id: string) => routes.byId(id).response.schema ?? "";
  const entrySchema = routes.byId("v5.form-items").pagination?.entrySchema ?? "list-entry";
  for (const organization of store.organizations()) {
    for (const form of store.forms(organization.slug)) {
      if (!form.source) continue;
      const first = store.sequence(organization.slug, form).slice(0, "asc", 1)[0];
      // Each view with its schema and name. The entry's shape is the contract's (`seed` or `document`):
      // judged only when the sandbox serves it.
      const judged: [schema: string, view: unknown, what: string][] = [
        [schemaOf("v5.public-form"), publicFormView(ctx, form, organization, true), "public form"],
      ];
      if (first && contract.shapes === shapes)
        judged.push([entrySchema, listEntryView(ctx, first), "items-listing entry"]);
      if (first) judged.push([schemaOf("v5.order-detail"), orderView(ctx, first, true), "order detail"]);
      const [problem] = judged.flatMap(([schema, view, what]) =>
        contract.schemas.validate(schema, view, what),
      );
      if (problem) throw breaks(form, `${problem.path} ${problem.message}`);
    }
  }
}

function breaks(form: FormDef, detail: string): AssopayError {
  return new AssopayError(
    "bad-input",
    `the sandbox data file is invalid: form ${form.formType}/${form.formSlug} would break the contract: ${detail}`,
    {
      ...(form.source ? { location: form.source } : {}),
      hint: 'correct the form\'s values at that line (docs/sandbox.md, "Your own data")',
    },
  );
}
