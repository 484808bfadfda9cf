"""Colors, styles and themes (rich.color, rich.style, rich.theme)."""

import io

import pytest
from rich.color import Color, ColorParseError, ColorSystem, ColorType, blend_rgb
from rich.color_triplet import ColorTriplet
from rich.console import Console
from rich.errors import MissingStyle, StyleSyntaxError
from rich.style import Style
from rich.theme import Theme, ThemeStackError


def test_color_parse_forms():
    cases = {
        "red": (ColorType.STANDARD, 1, None),
        "bright_red": (ColorType.STANDARD, 9, None),
        "#ff8000": (ColorType.TRUECOLOR, None, (255, 128, 0)),
        "rgb(10,20,30)": (ColorType.TRUECOLOR, None, (10, 20, 30)),
        "color(100)": (ColorType.EIGHT_BIT, 100, None),
        "color(7)": (ColorType.STANDARD, 7, None),
        "grey50": (ColorType.EIGHT_BIT, 244, None),
        "default": (ColorType.DEFAULT, None, None),
    }
    for text, (ctype, number, triplet) in cases.items():
        color = Color.parse(text)
        assert color.type == ctype, text
        assert color.number == number, text
        assert (tuple(color.triplet) if color.triplet else None) == triplet, text


def test_color_parse_errors():
    messages = {
        "nope": "'nope' is not a valid color",
        "#f80": "'#f80' is not a valid color",
        "rgb(1,2)": "expected three components in 'rgb(1,2)'",
        "color(300)": "color number must be <= 255 in 'color(300)'",
        "rgb(300,0,0)": "color components must be <= 255 in 'rgb(300,0,0)'",
    }
    for text, message in messages.items():
        with pytest.raises(ColorParseError) as excinfo:
            Color.parse(text)
        assert str(excinfo.value) == message


def test_color_downgrade_to_smaller_palettes():
    orange = Color.parse("#ff8000")
    assert orange.downgrade(ColorSystem.EIGHT_BIT).number == 208
    assert orange.downgrade(ColorSystem.STANDARD).number == 9
    assert Color.parse("#808080").downgrade(ColorSystem.EIGHT_BIT).number == 244
    assert Color.parse("#7f7f7f").downgrade(ColorSystem.STANDARD).number == 8
    assert Color.parse("color(200)").downgrade(ColorSystem.STANDARD).number == 5
    assert Color.parse("red").downgrade(ColorSystem.TRUECOLOR) == Color.parse("red")


def test_color_conversions_and_ansi_codes():
    assert Color.parse("red").get_truecolor() == ColorTriplet(128, 0, 0)
    assert Color.parse("color(200)").get_truecolor() == ColorTriplet(255, 0, 215)
    assert blend_rgb(ColorTriplet(0, 0, 0), ColorTriplet(255, 255, 255), 0.5) == ColorTriplet(127, 127, 127)
    assert Color.parse("#ff8000").get_ansi_codes() == ("38", "2", "255", "128", "0")
    assert Color.parse("color(200)").get_ansi_codes(foreground=False) == ("48", "5", "200")
    assert Color.parse("bright_green").get_ansi_codes() == ("92",)
    assert Color.from_rgb(1, 2, 3).triplet.hex == "#010203"
    assert Color.from_ansi(9).name == "color(9)"
    assert Color.parse("#ff0080").triplet.rgb == "rgb(255,0,128)"


def test_style_parse_and_str():
    st = Style.parse("bold italic red on #0000ff underline link https://example.com")
    assert st.bold and st.italic and st.underline
    assert st.color.name == "red" and st.bgcolor.triplet == ColorTriplet(0, 0, 255)
    assert st.link == "https://example.com"
    assert str(st) == "bold italic underline red on #0000ff link https://example.com"
    assert str(Style.parse("not bold dim")) == "not bold dim"
    assert str(Style.parse("b i u s")) == "bold italic underline strike"
    assert Style.parse("none") == Style.null()
    assert Style.normalize("BOLD  Red") == "bold red"
    assert Style.normalize("this is [broken") == "this is [broken"


def test_style_parse_errors():
    messages = {
        "bold on": "color expected after 'on'",
        "fancy": "unable to parse 'fancy' as color; 'fancy' is not a valid color",
        "link": "URL expected after 'link'",
        "not": "expected style attribute after 'not', found ''",
    }
    for text, message in messages.items():
        with pytest.raises(StyleSyntaxError) as excinfo:
            Style.parse(text)
        assert str(excinfo.value) == message, text


def test_style_combination_and_rendering():
    a = Style(bold=True, color="red")
    b = Style(italic=True, color="blue", bold=False)
    assert str(a + b) == "not bold italic blue"
    assert str(Style.combine([a, b, Style(underline=True)])) == "not bold italic underline blue"
    assert str(Style.chain(b, a)) == "bold italic red"
    assert a.render("x", color_system=ColorSystem.TRUECOLOR) == "\x1b[1;31mx\x1b[0m"
    assert Style.parse("#ff8000 on color(200)").render("x", color_system=ColorSystem.STANDARD) == "\x1b[91;45mx\x1b[0m"
    assert Style.parse("#ff8000").render("x", color_system=ColorSystem.EIGHT_BIT) == "\x1b[38;5;208mx\x1b[0m"
    assert a.render("x", color_system=None) == "x"
    assert Style.parse("bold italic #ff0000 on blue").get_html_style() == (
        "color: #ff0000; text-decoration-color: #ff0000; background-color: #000080; font-weight: bold; font-style: italic"
    )


def test_theme_lookup_inheritance_and_stack(tmp_path):
    theme_file = tmp_path / "theme.ini"
    theme_file.write_text("[styles]\nwarning = bold yellow\ninfo = dim cyan\n")
    file_theme = Theme.read(str(theme_file))
    assert str(file_theme.styles["warning"]) == "bold yellow"

    console = Console(
        file=io.StringIO(), width=40, force_terminal=True, color_system="standard", legacy_windows=False, _environ={}
    )
    console.push_theme(file_theme)
    console.print("[warning]careful[/warning] [info]fyi[/info]")
    with console.use_theme(Theme({"warning": "red"}, inherit=True)):
        console.print("[warning]nested[/warning]")
    console.pop_theme()
    with pytest.raises(ThemeStackError):
        console.pop_theme()
    assert console.file.getvalue() == (
        "\x1b[1;33mcareful\x1b[0m \x1b[2;36mfyi\x1b[0m\n"
        "\x1b[31mnested\x1b[0m\n"
    )
    with pytest.raises(MissingStyle):
        console.get_style("no.such.style")
    assert console.get_style("no.such.style", default="bold") == Style(bold=True)
    assert console.get_style("bold green") == Style(bold=True, color="green")


def test_console_color_system_downgrades_output():
    # Each parsed Style caches its ANSI codes for the first color system it is
    # rendered with, so every color system here gets its own color value.
    outputs = []
    for system, color in [("truecolor", "#ff8001"), ("256", "#ff8002"), ("standard", "#ff8003")]:
        console = Console(
            file=io.StringIO(), width=20, force_terminal=True, color_system=system, legacy_windows=False, _environ={}
        )
        console.print(f"[{color}]x[/] [bold]y[/]", end="")
        outputs.append(console.file.getvalue())
    assert outputs == [
        "\x1b[38;2;255;128;1mx\x1b[0m \x1b[1my\x1b[0m",
        "\x1b[38;5;208mx\x1b[0m \x1b[1my\x1b[0m",
        "\x1b[91mx\x1b[0m \x1b[1my\x1b[0m",
    ]
