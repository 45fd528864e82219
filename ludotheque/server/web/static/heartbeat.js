// A heartbeat for a live socket: a server that stops answering (frozen, or a connection that a
// proxy keeps open with nobody behind it) is noticed. The page pings every ``every`` ms; when
// nothing has come back ``late`` ms after a ping it says so (``onLate``), and after ``dead`` ms
// of silence it closes the socket, so that the page's usual reconnection takes over. Any
// message from the server counts as a sign of life (``heard``).

export function heartbeat(socket, { onLate, onBack, every = 5000, late = 3000, dead = 10000 }) {
  let lastHeard = Date.now();
  let lastPing = 0;
  let isLate = false;
  const timer = setInterval(() => {
    if (socket.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (now - lastHeard >= every && now - lastPing >= every) {
      lastPing = now;
      socket.send(JSON.stringify({ type: "ping" }));
    }
    const silent = lastPing > lastHeard ? now - lastPing : 0;
    if (silent >= dead) {
      clearInterval(timer);
      socket.close(4000, "no answer");
    } else if (silent >= late && !isLate) {
      isLate = true;
      onLate();
    }
  }, 500);
  return {
    heard() {
      lastHeard = Date.now();
      if (isLate) {
        isLate = false;
        onBack();
      }
    },
    stop() {
      clearInterval(timer);
    },
  };
}
