/**
 * SolidStart 2 runs a middleware module only when its Vite plugin names it
 * (`solidStart({ middleware: "./src/middleware.ts" })`): the edit of the
 * project's vite.config that adds the option, every other byte kept, or the
 * reason it was not made.
 */
export type ConfigEdit = { status: "edited"; text: string } | { status: "refused"; reason: string };

export function addMiddlewareOption(text: string, middleware: string): ConfigEdit {
  const calls = [...text.matchAll(/\bsolidStart\(\s*(\{)?/g)];
  if (calls.length !== 1) return { status: "refused", reason: "it does not call solidStart() once" };
  const call = calls[0]!;
  const option = `middleware: ${JSON.stringify(middleware)}`;
  const end = call.index + call[0].length;
  if (!call[1]) {
    // solidStart() with no options: they become the only argument.
    if (text[end] !== ")")
      return { status: "refused", reason: "solidStart() is called with options that are no object" };
    return { status: "edited", text: `${text.slice(0, end)}{ ${option} }${text.slice(end)}` };
  }
  if (/\bmiddleware\s*:/.test(text)) return { status: "refused", reason: "solidStart() names a middleware already" };
  const empty = /^\s*\}/.test(text.slice(end));
  return { status: "edited", text: `${text.slice(0, end)} ${option}${empty ? " " : ","}${text.slice(end)}` };
}
