"""Where the rows come from and how they become samples: sources, local files, the rows
child and its cache, images, few-shot draws, bundled samples, and each benchmark's own data
(``data/<benchmark>.py``)."""
