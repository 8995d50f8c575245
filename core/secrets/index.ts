export * from "./formats.js";
export * from "./names.js";
export * from "./placeholder.js";
export * from "./text.js";
