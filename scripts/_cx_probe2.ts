import { createReadStream } from "node:fs";
import { parse } from "csv-parse";
for (const info of [false, true]) {
let t = Date.now(); let n = 0;
for await (const r of createReadStream(process.argv[2], { highWaterMark: 1 << 20 }).pipe(parse({ bom: true, relax_column_count: true, info })) as AsyncIterable<unknown>) { n++; void r; }
console.log("parse info", info, n, Date.now() - t);
}
let t = Date.now(); let n = 0;
const p = parse({ bom: true, relax_column_count: true, info: true });
p.on("readable", () => { while (p.read() !== null) n++; });
await new Promise((res) => { p.on("end", res); createReadStream(process.argv[2], { highWaterMark: 1 << 20 }).pipe(p); });
console.log("parse readable", n, Date.now() - t);
