/** A one-time message an action leaves for the next page: a toast or a snackbar. */
export type FlashMessage = {
  kind: "toast" | "snackbar";
  type: "success" | "error" | "info" | "warning";
  message: string;
};
