export { RECEIPT_EVENTS, type Receipt } from "~/models/deliveries/receipts.server"; // moved
