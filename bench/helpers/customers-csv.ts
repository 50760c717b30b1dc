// A CSV of customers as a shop would export them (Indian names, addresses and phone numbers, the
// spend, visits and last activity columns the import reads): the file the customers section
// imports and the offthread section posts to the server. With extras, ten columns of the shop's
// own fields (IMPORT_FIELDS, of every type) and a `tags` column follow (the second import of the
// customers section).
import { once } from "node:events";
import { createWriteStream } from "node:fs";

const FIRST = [
  "Aarav",
  "Vivaan",
  "Aditya",
  "Vihaan",
  "Arjun",
  "Sai",
  "Reyansh",
  "Krishna",
  "Ishaan",
  "Rohan",
  "Ananya",
  "Diya",
  "Priya",
  "Aadhya",
  "Kavya",
  "Meera",
  "Saanvi",
  "Pooja",
  "Sneha",
  "Lakshmi",
  "Rahul",
  "Amit",
  "Sanjay",
  "Deepika",
  "Nikhil",
];
const LAST = [
  "Sharma",
  "Verma",
  "Patel",
  "Iyer",
  "Reddy",
  "Nair",
  "Gupta",
  "Singh",
  "Kumar",
  "Das",
  "Mehta",
  "Joshi",
  "Menon",
  "Pillai",
  "Rao",
  "Chopra",
  "Bose",
  "Banerjee",
  "Kulkarni",
  "Desai",
];
const CITIES = [
  "Mumbai, Maharashtra",
  "Bengaluru, Karnataka",
  "Chennai, Tamil Nadu",
  "Kolkata, West Bengal",
  "Hyderabad, Telangana",
  "Pune, Maharashtra",
  "Jaipur, Rajasthan",
  "Kochi, Kerala",
];

type Row = [string, string, string, string, string, string, string, string, string, string];

/** The i-th row of the CSV, its fields as text in the header's order. */
export function csvRow(i: number): Row {
  const first = FIRST[i % FIRST.length];
  const last = LAST[(i * 7) % LAST.length];
  return [
    first,
    last,
    `${first.toLowerCase()}.${last.toLowerCase()}.${i}@example.in`,
    `+91 9${String((i * 7919) % 10000).padStart(4, "0")} ${String(i % 100000).padStart(5, "0")}`,
    `${(i % 400) + 1}, ${["MG Road", "Park Street", "Anna Salai", "Linking Road"][i % 4]}, ${CITIES[i % CITIES.length]} ${400000 + (i % 99999)}`,
    i % 3 === 0 ? `${last} Traders Pvt Ltd` : "",
    i % 5 === 0 ? "Prefers WhatsApp, evenings" : "",
    (((i * 37) % 250000) / 100).toFixed(2),
    String(i % 25),
    new Date(Date.UTC(2024, i % 12, (i % 28) + 1)).toISOString().slice(0, 10),
  ];
}

/** The shop's own fields the file with extras carries, as the import's tenant defines them first. */
export const IMPORT_FIELDS = [
  { name: "tier", label: "Tier", type: "choice", choices: ["Bronze", "Silver", "Gold", "Platinum"] },
  { name: "points", label: "Points", type: "number" },
  { name: "member_since", label: "Member since", type: "date" },
  { name: "store", label: "Store", type: "text" },
  { name: "newsletter", label: "Newsletter", type: "boolean" },
  { name: "size", label: "Size", type: "choice", choices: ["S", "M", "L", "XL"] },
  { name: "referrer", label: "Referrer", type: "text" },
  { name: "anniversary", label: "Anniversary", type: "date" },
  { name: "credit", label: "Store credit", type: "number" },
  { name: "language", label: "Language", type: "choice", choices: ["Hindi", "English", "Tamil", "Marathi", "Bengali"] },
] as const;

/** The twenty tags the file with extras spreads over its rows. */
export const IMPORT_TAGS = Array.from({ length: 20 }, (_, k) =>
  k === 0 ? "VIP" : k === 1 ? "Diwali 2025" : k === 2 ? "Trade fair" : `Segment tag ${k}`,
);

const STORES = ["Koramangala", "Indiranagar", "Bandra West", "T Nagar", "Salt Lake", "Banjara Hills"];

/** The i-th row's field cells, in IMPORT_FIELDS' order (one in eleven left empty). */
export function fieldCells(i: number): string[] {
  const day = (k: number) => new Date(Date.UTC(2015 + (k % 10), k % 12, (k % 28) + 1)).toISOString().slice(0, 10);
  const cells = [
    ["Bronze", "Silver", "Gold", "Platinum"][i % 4],
    String((i * 13) % 5000),
    day(i),
    STORES[i % STORES.length],
    i % 2 === 0 ? "yes" : "no",
    ["S", "M", "L", "XL"][(i * 3) % 4],
    i % 7 === 0 ? `Friend ${i % 1000}` : "Instagram",
    day(i * 5 + 3),
    (((i * 17) % 100000) / 100).toFixed(2),
    ["Hindi", "English", "Tamil", "Marathi", "Bengali"][i % 5],
  ];
  return cells.map((c, k) => ((i + k) % 11 === 0 ? "" : c));
}

/** The i-th row's tags: none to three of IMPORT_TAGS, separated by ";". */
export function tagsCell(i: number): string {
  const n = i % 4;
  return Array.from({ length: n }, (_, k) => IMPORT_TAGS[(i * 7 + k * 5) % IMPORT_TAGS.length]).join(";");
}

const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export async function writeCsv(file: string, n: number, extras = false) {
  const out = createWriteStream(file);
  const extraHeader = extras ? `,${IMPORT_FIELDS.map((f) => f.name).join(",")},tags` : "";
  out.write(`firstName,lastName,email,phone,address,company,notes,totalSpend,visits,lastActive${extraHeader}\n`);
  let chunk = "";
  for (let i = 0; i < n; i++) {
    const cells = extras ? [...csvRow(i), ...fieldCells(i), tagsCell(i)] : csvRow(i);
    chunk += `${cells.map(quote).join(",")}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}
