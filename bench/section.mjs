// One benchmark section on its own, printed instead of written to results.md:
// npm run build && npx node --expose-gc bench/section.mjs formats   (the file name without .mjs)
const name = process.argv[2];
const module = await import(`./${name}.mjs`);
const section = Object.values(module).find(
  (value) => typeof value === "function" && value.name.endsWith("Section"),
);
if (section === undefined) throw new Error(`bench/${name}.mjs exports no …Section function`);
console.log(await section());
