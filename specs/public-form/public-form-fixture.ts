import type { CheckContext } from "../runner/context.js";
import { type HttpExchange, isSuccess, parseJson } from "../runner/http.js";
import { stateString } from "../runner/states.js";

const STATE = "a form with custom fields and options and no order";

/** The public form read once per run: the state's fresh form when the target offers states, else --form. */
export interface PublicFormRead {
  exchange: HttpExchange;
  body: unknown;
  /** True when a provider state promised a form with custom fields and options and no order. */
  seeded: boolean;
  /** Why the state could not be used, when it could not. */
  note: string | undefined;
}

export function readPublicForm(ctx: CheckContext): Promise<PublicFormRead> {
  return ctx.memo.get("fixture:public-form", async () => {
    let params: Record<string, string> = {};
    let seeded = false;
    let note: string | undefined;
    if (ctx.states) {
      const answer = await ctx.states.setup(STATE);
      if (answer.ok) {
        seeded = true;
        for (const name of ["organizationSlug", "formType", "formSlug"]) {
          const value = stateString(answer.values, name);
          if (value) params = { ...params, [name]: value };
        }
      } else {
        note = answer.reason;
      }
    }
    const route = ctx.contract.routes.byId("v5.public-form");
    const exchange = await ctx.http.send({
      method: "GET",
      url: await ctx.urlOf(route, params),
      authorization: await ctx.authorization("reader"),
    });
    const parsed = isSuccess(exchange.status) ? parseJson(exchange) : undefined;
    return { exchange, body: parsed?.ok ? parsed.value : undefined, seeded, note };
  });
}
