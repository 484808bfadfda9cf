"""click-s6-parse-args-deepest-chain: the chain of calls down to the deepest call.

The deepest call is the first call, among those of functions whose dotted
name starts with one of query["include"], that is deepest below invocation
query["invocation"]; the answer lists the functions on the stack from
depth 1 down to it (whatever their module).

answer(trace, query) is called by tracegate's harvest with the recorded trace
(format "tracegate-trace/1") and this instance's query. Every `call` event
lists, in `owners`, the invocations on the stack and its depth below each;
following them in order rebuilds the stack below invocation k.
"""


def answer(trace, query):
    k, include = query["invocation"], tuple(query.get("include") or ("",))
    fields = trace["event_fields"]["call"]
    owners_at, func_at = 1 + fields.index("owners"), 1 + fields.index("func")
    stack, deepest = [], []
    for event in trace["events"]:
        if event[0] != "call":
            continue
        depth = next((d for inv, d in event[owners_at] if inv == k), None)
        if depth is None:
            continue
        del stack[depth - 1:]
        stack.append(event[func_at])
        if event[func_at].startswith(include) and len(stack) > len(deepest):
            deepest = list(stack)
    if not trace["invocations"] or len(trace["invocations"]) < k:
        raise ValueError("invocation %d not reached" % k)
    return {"deepest_call_chain": deepest}
