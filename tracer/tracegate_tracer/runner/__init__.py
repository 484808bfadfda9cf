"""The driver's processes: a group's sandbox (dirs, uid, cleanup), the child pytest run and the bounded
capture of its output, warm starts from fork servers, and the result stream on stdout."""
