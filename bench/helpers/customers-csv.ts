// A CSV of customers as a shop would export them (Indian names, addresses and phone numbers, the
// spend, visits and last activity columns the import reads): the file the customers section
// imports and the offthread section posts to the server.
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

const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export async function writeCsv(file: string, n: number) {
  const out = createWriteStream(file);
  out.write("firstName,lastName,email,phone,address,company,notes,totalSpend,visits,lastActive\n");
  let chunk = "";
  for (let i = 0; i < n; i++) {
    chunk += `${csvRow(i).map(quote).join(",")}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}
