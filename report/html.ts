/** The HTML writer; its parts live in `report/html/` (escaping, style, crawl picture, matrix, evidence). */
export { escapeHtml } from "./html/escape.js";
export { writeHtml } from "./html/index.js";
