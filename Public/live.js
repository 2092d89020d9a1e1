// Live updates: every change committed to this board, pushed over Server-Sent Events.

export function initLiveUpdates(view, boardID) {
  if (!('EventSource' in window)) return () => {};
  const source = new EventSource(`/boards/${encodeURIComponent(boardID)}/events`);
  const onChanges = (event) => view.apply(JSON.parse(event.data));
  const onHello = (event) => {
    const { version } = JSON.parse(event.data);
    if (version > view.version()) view.resync(version);
  };
  source.addEventListener('changes', onChanges);
  source.addEventListener('hello', onHello);
  return () => source.close();
}
