"""verify.report.figures.save: the PNG comes from the one Agg drawing that lays the figure out,
cropped to what was drawn with a margin; it matches what savefig writes for that crop, and a
figure with something drawn outside its edge falls back to savefig, which keeps it."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from verify.report import figures as RF


def _figure():
    fig, axes = plt.subplots(1, 2, figsize=(6, 2.5))
    x = np.linspace(0, 5, 50)
    for k, ax in enumerate(axes):
        ax.plot(x, np.sin(x + k), label="theory")
        ax.set_xlabel("t / tau")
        ax.legend()
    return fig


def _savefig_png(fig, path):
    """What save wrote before: savefig of the laid-out figure, cropped by bbox_inches."""
    RF.tidy(fig)
    fig.set_dpi(RF.PNG_DPI)
    fig.canvas.draw()
    bbox = fig.get_tightbbox(fig.canvas.get_renderer()).padded(RF.MARGIN)
    fig.set_layout_engine("none")
    fig.savefig(path, format="png", bbox_inches=bbox, dpi=RF.PNG_DPI)
    plt.close(fig)
    return plt.imread(path)


def test_the_png_is_the_drawn_crop_savefig_would_write(tmp_path):
    paths = RF.save(_figure(), tmp_path / "figures", "a")
    ours = plt.imread(tmp_path / paths["png"])
    theirs = _savefig_png(_figure(), tmp_path / "b.png")
    assert list(paths) == ["png"] and not list((tmp_path / "figures").glob("*.svg"))
    assert all(abs(a - b) <= 2 for a, b in zip(ours.shape, theirs.shape))
    h, w = min(ours.shape[0], theirs.shape[0]), min(ours.shape[1], theirs.shape[1])
    assert ours.shape[2] == 3        # RGB: the face is opaque
    assert np.abs(ours[:h, :w] - theirs[:h, :w, :3]).mean() < 0.02


def test_the_margin_is_blank_so_no_label_is_cut(tmp_path):
    png = plt.imread(tmp_path / RF.save(_figure(), tmp_path / "figures", "a")["png"])
    edge = round(RF.MARGIN * RF.PNG_DPI) - 1
    for border in (png[:edge], png[-edge:], png[:, :edge], png[:, -edge:]):
        assert np.all(border == 1.0)


def test_something_drawn_outside_the_figure_is_kept(tmp_path):
    fig = _figure()
    fig.text(1.15, 0.5, "a note beyond the right edge")
    width_px = fig.get_figwidth() * RF.PNG_DPI
    png = plt.imread(tmp_path / RF.save(fig, tmp_path / "figures", "a")["png"])
    assert png.shape[1] > width_px + 50
