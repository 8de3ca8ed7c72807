/** Vite's `?raw` imports: a file's text, for the recordings the in-workerd tests send to the Worker. */
declare module "*?raw" {
  const text: string;
  export default text;
}
