/** `$lib/...` for a module under src/lib (SvelteKit's alias), as the hooks import it: the wiring writes it, the doctor part looks for it. */
export const libModule = (configPath: string) => `$lib/${configPath.replace(/\.ts$/, "").slice("src/lib/".length)}`;
