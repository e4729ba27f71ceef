"""Animations of the teaching panels: frames, the static background, writers, the HTML player.

:func:`animate` puts :class:`~perceptron_bounds.plots.panels.RunPanel` and the
mistakes panel side by side, one frame per update (or per trial), from bound
curves already computed; :func:`~perceptron_bounds.plots.save_animation` writes it
as GIF, MP4 or HTML.
:func:`~perceptron_bounds.plots.animate_run` computes the curves when not given.
"""

from __future__ import annotations

import os

import numpy as np

from .._validation import check_choice, check_real, check_X
from .panels import RunPanel, draw_mistakes, new_axes, plane
from .presentation import presentation

#: Frames of :func:`animate`: one per update (k = 0..n_updates) or one per trial.
PER = ("update", "trial")
#: The files :func:`~perceptron_bounds.plots.save_animation` writes, by extension.
FORMATS = (".gif", ".mp4", ".html")


def _frame_canvas_class():
    """An Agg canvas whose ``draw_idle`` does nothing (defined when matplotlib is imported).

    Saving an animation draws every frame twice: once on ``draw_idle`` and once
    to grab it. With this canvas it is drawn once, by one renderer that keeps
    the sizes of the texts it measured (a canvas borrowed per frame, as a
    Figure without pyplot gets, would measure them all again).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    class FrameCanvas(FigureCanvasAgg):
        def draw_idle(self, *args, **kwargs):
            pass

    return FrameCanvas


def animate(run, X, y, curves, *, per="update", interval=200):
    """Animate a run on 2-D data beside its mistakes and the bound curves given.

    Parameters
    ----------
    run : OnlineRun
        A binary run of any registered algorithm, not warm-started.
    X, y : array-like
        Its data, 2-D as :func:`~perceptron_bounds.plots.panels.plane` reads them.
    curves : BoundCurves
        Its bounds over time, from :func:`~perceptron_bounds.bounds.bounds_over_time`;
        their comparator is drawn in the 2-D panel, with its margin band unless
        the algorithm's presentation says otherwise (``Teaching.band``).
    per : {"update", "trial"}, default="update"
        One frame per update, k = 0..``run.n_updates`` (``n_updates + 1``
        frames), or one per trial (``run.n_trials`` frames).
    interval : float, default=200
        Milliseconds between frames.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        What :func:`~perceptron_bounds.plots.animate_run` returns, which
        computes the curves when it is not given them.

    Examples
    --------
    >>> from perceptron_bounds import run_online
    >>> from perceptron_bounds.bounds import bounds_over_time
    >>> from perceptron_bounds.datasets import make_separable
    >>> X, y, u = make_separable(30, 2, margin=0.2, seed=0)
    >>> run = run_online("perceptron", X, y)
    >>> anim = animate(run, X, y, bounds_over_time(run, X, y, u=u, gamma=0.2))
    >>> len(list(anim.new_frame_seq())) == run.n_updates + 1
    True
    >>> html = anim.to_jshtml()
    """
    from matplotlib.animation import FuncAnimation

    per = check_choice("per", per, PER)
    interval = check_real("interval", interval, low=0.0, include_low=False)
    snapshots = run.snapshots(X, y)  # checks run, X and y
    plane(check_X(X))
    ax_run, ax_bounds = new_axes(2, (11.0, 6.0), width_ratios=[1.0, 1.1])
    # A bound that measures gamma on transformed instances (the Higher-Order's, theory §4.1),
    # not on the drawn ones: its comparator is drawn without a band.
    band = curves.gamma if presentation(run.algorithm).teaching.band else None
    snapshots = list(snapshots)
    panel = RunPanel(ax_run, run, X, y, curves.comparator, band,
                     snapshots[-1].matrix is not None)
    draw_mistakes(ax_bounds, run, curves)
    updates = run.update_trials
    if per == "update":
        frames = [(k, int(updates[k - 1]) if k else -1, k > 0) for k in range(run.n_updates + 1)]
    else:
        done = np.searchsorted(updates, np.arange(run.n_trials), side="right")
        updated = np.isin(np.arange(run.n_trials), updates)
        frames = [(int(done[t]), t, bool(updated[t])) for t in range(run.n_trials)]
    fig = ax_run.figure
    cursor = _static_background(fig, panel, ax_bounds, lambda: panel.show(
        snapshots[-1], frames[-1][1], snapshots[-2] if len(snapshots) > 1 else None))

    def draw(i):
        k, trial, updated = frames[i]
        panel.show(snapshots[k], trial, snapshots[k - 1] if updated else None)
        cursor.set_xdata([trial + 1, trial + 1])

    return FuncAnimation(fig, draw, frames=len(frames), interval=interval, blit=False,
                         cache_frame_data=False)


def _static_background(fig, panel, ax_bounds, widest):
    """Draw what no frame changes once, under the frames; return the cursor.

    The figure is laid out once, in the state ``widest()`` draws (every mistake
    ringed), and keeps that layout. Then the bound panel, the 2-D panel's axes
    and legend are drawn once, on a canvas of the figure's own
    (:func:`_frame_canvas_class`), and hidden; a background artist
    (:func:`_background_class`) puts those pixels back under every frame. A
    frame then draws only the 2-D panel's data, its title and the cursor, a
    vertical line at the trial shown on the bound panel: about 4 times less
    than the whole figure.
    """
    from matplotlib import rc_context
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D
    from matplotlib.transforms import blended_transform_factory

    canvas = _frame_canvas_class()(fig)
    widest()
    fig.draw_without_rendering()
    with rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)
    panel.title.set_text("")
    canvas.draw()
    region = canvas.copy_from_bbox(fig.bbox)
    image = Axes(fig, (0.0, 0.0, 1.0, 1.0))  # not added: drawn only by the background
    image.set_axis_off()
    image.imshow(np.array(canvas.buffer_rgba()), aspect="auto", interpolation="none")
    for artist in (ax_bounds, panel.ax.xaxis, panel.ax.yaxis, panel.ax.get_legend()):
        artist.set_visible(False)
    fig.add_artist(_background_class()(region, canvas.get_width_height(physical=True), image))
    cursor = Line2D([0, 0], [0, 1], color="crimson", linewidth=1.2, zorder=6, gid="cursor",
                    transform=blended_transform_factory(ax_bounds.transData,
                                                       ax_bounds.transAxes))
    fig.add_artist(cursor)
    return cursor


def _background_class():
    """The artist that draws a figure's static parts from their saved pixels.

    On an Agg renderer of the size they were drawn at (every frame that
    ``save_animation`` and ``to_jshtml`` grab) it copies the pixels back
    (``restore_region``, a copy of the buffer); on any other renderer (another
    dpi, a vector format) it draws them as an image scaled to the figure.
    """
    from matplotlib.artist import Artist
    from matplotlib.backends.backend_agg import RendererAgg

    class Background(Artist):
        zorder = -1

        def __init__(self, region, size, image):
            super().__init__()
            self.region, self.size, self.image = region, size, image

        def draw(self, renderer):
            if not self.get_visible():
                return
            if isinstance(renderer, RendererAgg) and \
                    (int(renderer.width), int(renderer.height)) == self.size:
                renderer.restore_region(self.region)
            else:
                self.image.draw(renderer)

    return Background


def _gif_writer_class():
    """A GIF writer (Pillow) that gives each frame its palette as it is grabbed.

    Matplotlib's ``PillowWriter`` leaves that to Pillow's GIF encoder, whose
    median-cut quantizer takes most of the time of a frame; the fast octree
    quantizer, enough for the few flat colours of a plot, is about 7 times
    faster.
    """
    from io import BytesIO

    from matplotlib.animation import AbstractMovieWriter
    from PIL import Image

    class GifWriter(AbstractMovieWriter):
        def setup(self, fig, outfile, dpi=None):
            super().setup(fig, outfile, dpi=dpi)
            self._frames = []

        def grab_frame(self, **savefig_kwargs):
            buffer = BytesIO()
            self.fig.savefig(buffer, **{**savefig_kwargs, "format": "rgba", "dpi": self.dpi})
            frame = Image.frombuffer("RGBA", self.frame_size, buffer.getbuffer(), "raw", "RGBA",
                                     0, 1)
            self._frames.append(frame.convert("RGB").quantize(
                method=Image.Quantize.FASTOCTREE))

        def finish(self):
            self._frames[0].save(self.outfile, save_all=True, append_images=self._frames[1:],
                                 duration=int(1000 / self.fps), loop=0)

    return GifWriter


def save_animation(anim, path) -> str:
    """Write an animation to ``path``: ``.gif`` (Pillow), ``.mp4`` (ffmpeg) or ``.html``.

    Parameters
    ----------
    anim : matplotlib.animation.Animation
        E.g. from :func:`~perceptron_bounds.plots.animation.animate` or
        :func:`~perceptron_bounds.plots.animate_run`; its interval sets the frame rate.
    path : str or os.PathLike
        The file; its extension picks the format. ``.html`` is one self-contained
        page (matplotlib's ``HTMLWriter`` player: every frame embedded as PNG,
        whatever its size, with play controls that need no network).

    Returns
    -------
    str
        The path written.

    Raises
    ------
    ValueError
        Another extension.
    RuntimeError
        ``.mp4`` without an ``ffmpeg`` program on the PATH.
    """
    from matplotlib import animation

    path = os.fspath(path)
    extension = os.path.splitext(path)[1].lower()
    if extension not in FORMATS:
        raise ValueError(f"path must end in {', '.join(FORMATS)}; got {path!r}")
    if extension == ".gif":
        anim.save(path, writer=_gif_writer_class()(fps=1000.0 / anim.event_source.interval))
    elif extension == ".mp4":
        if not animation.writers.is_available("ffmpeg"):
            raise RuntimeError(f"writing {path!r} needs ffmpeg, which is not on the PATH: "
                               "install it, or save as .gif or .html")
        anim.save(path, writer=animation.FFMpegWriter(fps=1000.0 / anim.event_source.interval))
    else:
        _save_html(anim, path)
    return path


#: Matplotlib's player styles its buttons with Font Awesome from a CDN; these text
#: glyphs take its place, so that the page needs no network.
_PLAYER_ICONS = """<style>
.anim-buttons .fa { font-style: normal; font-family: sans-serif; }
.fa-minus::before { content: "\\2212"; }
.fa-plus::before { content: "+"; }
.fa-fast-backward::before { content: "|\\25C0\\25C0"; }
.fa-step-backward::before { content: "|\\25C0"; }
.fa-play::before { content: "\\25B6"; }
.fa-flip-horizontal { display: inline-block; transform: scaleX(-1); }
.fa-pause::before { content: "\\275A\\275A"; }
.fa-step-forward::before { content: "\\25B6|"; }
.fa-fast-forward::before { content: "\\25B6\\25B6|"; }
</style>"""


def _save_html(anim, path: str) -> None:
    """Write the animation as one page that holds every frame and loads nothing.

    Matplotlib's ``HTMLWriter`` drops the frames past ``animation.embed_limit``
    (20 MB by default) with a log message only; here there is no limit, and the
    page is checked to hold every frame of the animation. Its Font Awesome link
    is replaced by ``_PLAYER_ICONS``. Nothing is written to ``path`` on an error.
    """
    import math
    import re
    from tempfile import TemporaryDirectory

    from matplotlib.animation import HTMLWriter

    writer = HTMLWriter(fps=1000.0 / anim.event_source.interval, embed_frames=True,
                        default_mode="loop", embed_limit=math.inf)
    with TemporaryDirectory() as folder:
        draft = os.path.join(folder, "animation.html")
        anim.save(draft, writer=writer)
        with open(draft, encoding="utf-8") as file:
            html = file.read()
    link = r'<link rel="stylesheet"\s+href="https?://[^"]*">'
    html, links = re.subn(link, lambda _: _PLAYER_ICONS, html)
    expected = len(list(anim.new_frame_seq()))
    kept = len(re.findall(r"^  frames\[\d+\] = ", html, flags=re.MULTILINE))
    if links != 1 or kept != expected or re.search(r"https?://", html):
        raise RuntimeError(f"{path}: matplotlib's HTML player changed: the page holds {kept} of "
                           f"{expected} frames or links to the network; save as .gif instead")
    with open(path, "w", encoding="utf-8") as file:
        file.write(html)
