/** A style sheet imported by a page script: its text (esbuild's `text` loader, `bundle-page-script.ts`). */
declare module '*.css' {
  const text: string;
  export default text;
}
