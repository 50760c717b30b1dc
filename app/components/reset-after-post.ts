// A form that starts empty again once what it sent went through.
import { useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Calls `reset` when the page is idle again after the form was `posting` and the action gave no
 * `reply` (it redirected: the post went through). A refused post keeps what was typed.
 */
export function useResetAfterPost(posting: boolean, reply: unknown, reset: () => void): void {
  const navigation = useNavigation();
  const wasPosting = useRef(false);
  useEffect(() => {
    if (posting) wasPosting.current = true;
    else if (wasPosting.current && navigation.state === "idle") {
      wasPosting.current = false;
      if (!reply) reset();
    }
  }, [posting, navigation.state, reply, reset]);
}
