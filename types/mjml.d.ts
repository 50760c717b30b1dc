// The part of MJML 5's API the product uses (app/services/templates/render.server.ts): the package
// ships no types of its own.
declare module "mjml" {
  export type MjmlError = { line: number; message: string; tagName: string; formattedMessage: string };
  export type MjmlOptions = {
    validationLevel?: "strict" | "soft" | "skip";
    keepComments?: boolean;
    minify?: boolean;
    beautify?: boolean;
    /** Web fonts to link when the font-family names them (name → stylesheet address); {} links none. */
    fonts?: Record<string, string>;
    /** Leave mj-include alone (read no file). */
    ignoreIncludes?: boolean;
  };
  export type MjmlResult = { html: string; errors: MjmlError[] };
  export default function mjml2html(mjml: string, options?: MjmlOptions): Promise<MjmlResult>;
}
