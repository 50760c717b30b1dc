// The order status chip (docs/rules.md#order-status): completed green, pending amber, cancelled red,
// others default.
import { CHIP_CLASSES, statusColour } from "~/lib/orders";

export function OrderStatusChip({ status }: { status: string }) {
  const colour = statusColour(status);
  return (
    <span
      data-testid="order-status"
      data-colour={colour}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${CHIP_CLASSES[colour]}`}
    >
      {status}
    </span>
  );
}
