"""The browser app in a real browser: Debian's headless chromium, driven by Selenium.

Skipped (with the reason) where chromium, its driver or Selenium is missing,
unless ``AZGAMES_REQUIRE_BROWSER=1`` (CI), which makes that a failure.
``AZGAMES_SCREENSHOTS=1`` saves each game's page to ``docs/images/web_<game>.png``.
The window is a laptop's, 1280 x 720: the size where the page's rough edges showed.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from azgames.core.registry import list_games

from .helpers import canonical_svg, random_game

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
GAMES = [e.name for e in list_games()]


def _missing() -> str | None:
    for module in ("selenium", "fastapi", "uvicorn"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="module")
def server_url():
    missing = _missing()
    if missing:
        if os.environ.get("AZGAMES_REQUIRE_BROWSER") == "1":
            pytest.fail(f"AZGAMES_REQUIRE_BROWSER=1 but {missing}")
        pytest.skip(missing)
    import uvicorn

    from azgames.web.access import Access, new_token
    from azgames.web.app import create_app

    sock = socket.create_server(("127.0.0.1", 0))
    access = Access(port=sock.getsockname()[1], token=new_token())  # as serve makes it
    server = uvicorn.Server(uvicorn.Config(create_app(access), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.05)
        assert thread.is_alive(), "the server stopped while starting"
    yield access.url()  # http://localhost:PORT/?token=...
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser(server_url, tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,720",
    ):
        options.add_argument(arg)
    downloads = tmp_path_factory.mktemp("downloads")
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads)})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.downloads = downloads
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, server_url):
    browser.get(server_url)
    wait(browser, lambda d: d.execute_script("return socket && socket.readyState === 1"))
    return browser


def wait(driver, condition, timeout: float = 20, ignored: tuple = ()):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=ignored).until(condition)


def click_place(driver, target: str) -> None:
    """Click a board place as a person would. The topmost shape of the place
    (a piece over its square) takes the click; a view arriving between
    finding that shape and clicking it redraws the board, so a stale shape
    is found again rather than failing the test."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def clicked(d) -> bool:
        d.find_elements(By.CSS_SELECTOR, f'#board [data-target="{target}"]')[-1].click()
        return True

    wait(driver, clicked, ignored=(StaleElementReferenceException,))


def view(driver) -> dict:
    """The page's current view (the last state the server sent)."""
    return driver.execute_script("return view")


def set_up(driver, game: str, seats: list[str], options: dict | None = None, seed: int = 0) -> dict:
    """Fill in the New game form as a person would, start, and wait for the game."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(len(seats)))
    for i, spec in enumerate(seats):
        field = driver.find_element(By.CSS_SELECTOR, f'#seats input[data-seat="{i}"]')
        field.clear()
        field.send_keys(spec)
    if options:
        driver.find_element(By.CSS_SELECTOR, "#options-box summary").click()
        for name, value in options.items():
            field = driver.find_element(By.CSS_SELECTOR, f'#options input[name="{name}"]')
            field.clear()
            field.send_keys(value if isinstance(value, str) else json.dumps(value))
    seed_field = driver.find_element(By.ID, "seed")
    seed_field.clear()
    seed_field.send_keys(str(seed))
    driver.find_element(By.ID, "start").click()
    return wait(
        driver, lambda d: (v := view(d)).get("mode") == "play" and v["game"] == game and v["ply"] == 0 and v
    )


def click_move(driver, move: dict) -> None:
    """Play ``move`` as a person: click its places on the board, then its
    button if other moves share them (or it has no place)."""
    from selenium.webdriver.common.by import By

    ply = view(driver)["ply"]
    for i, target in enumerate(move["targets"]):
        click_place(driver, target)
        wait(driver, lambda d: (v := view(d))["ply"] > ply or v["clicks"] == move["targets"][: i + 1])
        if view(driver)["ply"] > ply:
            return
    box = "#choices" if move["targets"] else "#placeless"
    driver.find_element(By.CSS_SELECTOR, f'{box} button[data-action="{move["action"]}"]').click()


def words_heights(driver) -> dict[str, float]:
    """The picture's words (texts with a space: headers, panels, legends; not
    a piece's or a square's letter) and their height on the screen, in px."""
    return driver.execute_script(
        """
        const own = (t) => [...t.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join("");
        const heights = {};
        for (const t of document.querySelectorAll("#board svg text")) {
          if (own(t).trim().includes(" ")) heights[own(t)] = t.getBoundingClientRect().height;
        }
        return heights;
        """
    )


def assert_moves_stand_apart(driver) -> None:
    """Each legal move in the list is a tile of its own, and the room between
    neighbouring moves' texts is well over the spaces within a move: Azimuth's
    two columns ("place K b1 N  place K b1 E") read as one line."""
    texts, tiles, char, ground = driver.execute_script(
        """
        const buttons = [...document.querySelectorAll("#legal li button")];
        const texts = buttons.map((b) => {
          const range = document.createRange();
          range.selectNodeContents(b);
          return range.getBoundingClientRect();
        });
        const char = texts[0].width / buttons[0].textContent.length;  // the list's font is monospace
        const grounds = buttons.filter((b) => !b.matches(":hover")).map((b) => getComputedStyle(b).backgroundColor);
        return [texts.map((r) => [r.top, r.left, r.right]),
                buttons.map((b) => [b.getBoundingClientRect().left, b.getBoundingClientRect().right]),
                char, [...new Set(grounds), getComputedStyle(document.getElementById("side")).backgroundColor]];
        """
    )
    rows = [i for i in range(1, len(texts)) if abs(texts[i][0] - texts[i - 1][0]) < 2]
    assert rows, "the moves are in one column"
    gaps = [texts[i][1] - texts[i - 1][2] for i in rows]
    assert min(gaps) >= 3 * char, f"{min(gaps):.1f} px between moves, {char:.1f} px a character"
    assert min(tiles[i][0] - tiles[i - 1][1] for i in rows) >= 8, "the moves' tiles touch"
    *tile_grounds, panel = ground
    shown = len(tile_grounds) == 1 and tile_grounds[0] not in (panel, "rgba(0, 0, 0, 0)")
    assert shown, f"moves on {tile_grounds}, the panel {panel}"


def page_svg(driver) -> str:
    return driver.execute_script(
        "return new XMLSerializer().serializeToString(document.querySelector('#board svg'))"
    )


def test_the_page_passes_its_token_on_to_its_websocket(page, server_url):
    token = server_url.split("?token=")[1]
    assert page.execute_script("return socket.url").endswith(f"/ws?token={token}")
    assert page.find_element("id", "connection").text == "connected"


def test_a_whole_game_played_by_clicks(page):
    """Azacru, a person against random, a short turn limit: every move by clicks."""
    from selenium.webdriver.common.by import By

    rng = np.random.default_rng(0)
    current = set_up(page, "azacru", ["human", "random"], {"max_turns": 16})
    page.execute_script("send({type: 'speed', moves_per_second: 50})")
    while current["result"] is None:
        assert current["human_to_move"], current["status"]
        move = current["legal"][rng.integers(len(current["legal"]))]
        ply = current["ply"]
        click_move(page, move)
        # The person's move, then random's reply (or the end).
        current = wait(
            page,
            lambda d: (
                (v := view(d))["ply"] >= ply + 1 and (v["human_to_move"] or v["result"] is not None) and v
            ),
        )
        assert current["ply"] in (ply + 1, ply + 2)
    assert current["ply"] == 16 and current["result"]["truncated"]
    shown = page.find_element(By.ID, "result")
    assert shown.is_displayed() and shown.text.startswith("turn limit reached")
    # Save this game: the download is the game's record.
    page.find_element(By.ID, "save").click()
    saved = page.downloads / "azacru-16-plies.json"
    wait(page, lambda d: saved.exists() and saved.stat().st_size > 0)
    assert len(json.loads(saved.read_text())["actions"]) == 16


def test_a_replay_with_the_slider_shows_each_plys_position(page, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    env, svgs = random_game("azacru", 10, seed=4)
    path = tmp_path / "game.json"
    env.unwrapped.save_record(path)
    page.find_element(By.ID, "file").send_keys(str(path))
    wait(page, lambda d: view(d).get("mode") == "replay" and view(d)["ply"] == 10)
    slider = page.find_element(By.ID, "ply")
    slider.send_keys(Keys.HOME)  # each key moves the slider one ply, as a person's arrows do
    for ply in (0, 1, 2, 3):
        if ply:
            slider.send_keys(Keys.ARROW_RIGHT)
        wait(page, lambda d: d.find_element(By.ID, "board").get_attribute("data-ply") == str(ply))
        assert canonical_svg(page_svg(page)) == canonical_svg(svgs[ply])
        assert page.find_element(By.ID, "ply-label").text == f"move {ply} of 10"
        listed = [b.text for b in page.find_elements(By.CSS_SELECTOR, "#legal button")]
        assert listed == [m["move"] for m in view(page)["legal"]] and listed


def test_a_loaded_record_sets_the_form_and_plays_on_as_its_game(page, tmp_path):
    """The form was left on Azacru after loading an Azimuth record, so "play
    from here" played the wrong game; the replay's buttons were glyphs that
    common fonts lack; a seat's field cut an agent's options short."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    spec = "mcts:simulations=1000,seconds=5"
    seat = page.find_element(By.CSS_SELECTOR, '#seats input[data-seat="1"]')
    seat.clear()
    seat.send_keys(spec)
    scrolled, shown = seat.get_property("scrollWidth"), seat.get_property("clientWidth")
    assert scrolled <= shown, f"the spec is cut short: {scrolled} px of it in {shown} px"
    env, svgs = random_game("azimuth", 9, seed=2, num_players=3, max_turns=120)
    path = tmp_path / "azimuth.json"
    env.unwrapped.save_record(path)
    page.find_element(By.ID, "file").send_keys(str(path))
    wait(page, lambda d: view(d).get("mode") == "replay" and view(d)["game"] == "azimuth")
    assert Select(page.find_element(By.ID, "game")).first_selected_option.get_attribute("value") == "azimuth"
    assert page.find_element(By.ID, "players").get_property("value") == "3"
    assert (
        page.find_element(By.CSS_SELECTOR, '#options input[name="max_turns"]').get_property("value") == "120"
    )
    seats = page.find_elements(By.CSS_SELECTOR, "#seats input")
    assert [s.get_property("value") for s in seats][:2] == ["human", spec]  # the person's seats stay
    for button in page.find_elements(By.CSS_SELECTOR, "#replay button"):
        text = button.text
        assert all(32 <= ord(c) < 127 for c in text), f"{button.get_attribute('id')}: {text!r}"
        assert (text or button.get_attribute("aria-label")) and button.get_attribute("title")
        assert button.size["width"] > 20 and button.size["height"] > 20
    assert view(page)["legal"][0]["move"].startswith("place "), "a position with Azimuth's longest moves"
    assert_moves_stand_apart(page)
    page.find_element(By.ID, "prev").click()
    wait(page, lambda d: view(d)["ply"] == 8)
    page.find_element(By.ID, "prev").click()
    wait(page, lambda d: view(d)["ply"] == 7)
    for field in seats[1:]:  # people on every seat: no agent moves in the test's way
        field.clear()
        field.send_keys("human")
    page.find_element(By.ID, "play-from-here").click()
    current = wait(page, lambda d: (v := view(d))["mode"] == "play" and v)
    assert (current["game"], current["num_players"], current["ply"]) == ("azimuth", 3, 7)
    assert current["options"]["max_turns"] == 120 and current["seats"] == ["human"] * 3
    assert canonical_svg(page_svg(page)) == canonical_svg(svgs[7])


def test_a_bad_record_is_refused_in_the_page(page, tmp_path):
    from selenium.webdriver.common.by import By

    path = tmp_path / "bad.json"
    path.write_text('{"format": "azgames-record/0"}')
    page.find_element(By.ID, "file").send_keys(str(path))
    notice = wait(page, lambda d: (n := d.find_element(By.ID, "notice")).is_displayed() and n)
    assert "bad record" in notice.text and "'azgames-record/0'" in notice.text


def test_a_click_that_starts_no_move_is_explained_until_the_next_click(page):
    from selenium.webdriver.common.by import By

    current = set_up(page, "azacru", ["human", "random"])
    starts = {m["targets"][0] for m in current["legal"] if m["targets"]}
    board = page.find_elements(By.CSS_SELECTOR, "#board [data-target]")
    place = next(t for e in board if (t := e.get_attribute("data-target")) not in starts)
    click_place(page, place)
    notice = wait(page, lambda d: (n := d.find_element(By.ID, "notice")).is_displayed() and n)
    assert f"no legal move of player_0 starts at {place}" in notice.text
    time.sleep(0.3)  # the state message that follows the notice leaves it up
    assert page.find_element(By.ID, "notice").is_displayed()
    click_move(page, current["legal"][0])
    wait(page, lambda d: not d.find_element(By.ID, "notice").is_displayed())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_takes_a_move_by_clicks(page, game):
    """Each game in the page: a move clicked on its picture, a few agents'
    moves after it (the screenshot shows a game under way)."""
    players = 4 if game == "azure" else 2
    current = set_up(page, game, ["human"] * players, seed=1)
    # At 1280 x 720 the picture's words (legends, headers) were 6 to 8 px high.
    heights = words_heights(page)
    assert heights and min(heights.values()) >= 11.9, sorted(heights.items(), key=lambda kv: kv[1])[:3]
    assert_moves_stand_apart(page)
    if game == "azacru":
        # The dashed hint outlines the squares a move can start from, not the chevrons on them.
        shapes = page.execute_script(
            "return [...document.querySelectorAll('#board [data-target]')]"
            ".map((e) => [e.tagName, e.classList.contains('piece'), getComputedStyle(e).strokeDasharray])"
        )
        assert {dash for _, piece, dash in shapes if piece} == {"none"}
        assert any(dash != "none" for tag, _, dash in shapes if tag == "rect")
    move = next((m for m in current["legal"] if m["targets"]), current["legal"][0])
    click_move(page, move)
    after = wait(page, lambda d: (v := view(d))["ply"] == 1 and v)
    assert after["last"]["move"] == move["move"]
    assert canonical_svg(page_svg(page)) == canonical_svg(after["svg"])
    if os.environ.get("AZGAMES_SCREENSHOTS") == "1":
        rng = np.random.default_rng(1)
        for _ in range(8 if game == "azacru" else 5):  # a position under way, then a click started
            current = view(page)
            if current["result"] is not None:
                break
            click_move(page, current["legal"][rng.integers(len(current["legal"]))])
            wait(page, lambda d: view(d)["ply"] == current["ply"] + 1)
        start = next((m for m in view(page)["legal"] if len(m["targets"]) > 1), None)
        if start is not None:
            click_place(page, start["targets"][0])
            wait(page, lambda d: view(d)["clicks"])
        IMAGES.mkdir(parents=True, exist_ok=True)
        # A 1280 x 720 picture: the window grows by its frame (the tests' window is 1280 x 720 in all).
        window = page.get_window_size()
        page.set_window_size(
            window["width"], window["height"] + 720 - page.execute_script("return innerHeight")
        )
        page.execute_script("window.scrollTo(0, 0)")  # clicks scrolled the page to the board's places
        time.sleep(0.3)  # the page fits the picture to the window it now has
        page.save_screenshot(str(IMAGES / f"web_{game}.png"))
        page.set_window_size(window["width"], window["height"])
