"""The Emulator UI (issue 15) in headless Chromium, driven by Selenium through chromedriver.

One Hearth runs on the app's firebase/ directory (its rules and functions) in memory. The flows:
browse to a feed item `sendMessage` wrote; edit a field and see a Python listener receive it;
follow a denied request to its explanation beside the highlighted rules line; add an Auth user
and sign in with it; run `cleanupPresence` and see its invocation; search the users, add and
edit one with a phone number and photo, switch "one account per email address", clear all users;
filter and sort a collection (paged by cursor) and see the filter re-run on live writes; filter
the invocations by text and log level. Every page is saved as a
screenshot to .build/ui-screenshots/ (or $HEARTH_UI_SCREENSHOTS). Keyboard reachability and
text contrast are checked on each page.

Skips with one line when chromium or chromedriver is missing (Debian: chromium chromium-driver).
Run: .venv/bin/python -m pytest -q Tests/UI
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HEARTH = REPO / ".build" / "debug" / "hearth"
PROJECT = "demo-shouts"
SHOTS = Path(os.environ.get("HEARTH_UI_SCREENSHOTS", REPO / ".build" / "ui-screenshots"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

if not (CHROMIUM and CHROMEDRIVER):
    pytest.skip("skip: chromium or chromedriver not found (apt-get install -y chromium chromium-driver)",
                allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

WAIT_S = 15
UNREGISTERED_TOKEN = f"unregistered-bob-{uuid.uuid4().hex[:6]}"


# --------------------------------------------------------------------------- helpers


def http(method, url, body=None, headers=None):
    """(status, parsed JSON or text) of one request; non-2xx returned, not raised."""
    data = json.dumps(body).encode() if body is not None else None
    h = {"Content-Type": "application/json", **(headers or {})}
    request = urllib.request.Request(url, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


_BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz"


def geohash(lat, lng, precision=10):
    """The standard geohash (geofire-common's `geohashForLocation`)."""
    lat_r, lng_r = [-90.0, 90.0], [-180.0, 180.0]
    out, bits, ch, even = [], 0, 0, True
    while len(out) < precision:
        r, v = (lng_r, lng) if even else (lat_r, lat)
        mid = (r[0] + r[1]) / 2
        if v >= mid:
            ch = (ch << 1) | 1
            r[0] = mid
        else:
            ch <<= 1
            r[1] = mid
        even = not even
        bits += 1
        if bits == 5:
            out.append(_BASE32[ch])
            bits, ch = 0, 0
    return "".join(out)


class Server:
    def __init__(self, ports, log_path):
        self.ports = ports
        self.log_path = log_path

    def url(self, name, path=""):
        return f"http://127.0.0.1:{self.ports[name]}{path}"

    @property
    def documents(self):
        return f"/v1/projects/{PROJECT}/databases/(default)/documents"


@pytest.fixture(scope="module")
def hearth(tmp_path_factory):
    if not HEARTH.exists():
        subprocess.run(["swift", "build", "--product", "hearth"], cwd=REPO, check=True)
    work = tmp_path_factory.mktemp("ui")
    app = work / "firebase"
    shutil.copytree(REPO / "firebase", app, ignore=shutil.ignore_patterns(".hearth"))
    log_path = work / "hearth.log"
    log = open(log_path, "wb")
    process = subprocess.Popen(
        [str(HEARTH), "start", "--config", str(app / "firebase.json"), "--in-memory", "--project", PROJECT,
         "--firestore-port", "0", "--functions-port", "0", "--auth-port", "0", "--hub-port", "0", "--ui-port", "0"],
        cwd=work, stdout=log, stderr=subprocess.STDOUT)
    ports = {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and "ready" not in ports:
        text = log_path.read_text(errors="replace")
        for name, port in re.findall(r"^(firestore|functions|auth|hub|ui)\s+http://127\.0\.0\.1:(\d+)", text, re.M):
            ports[name] = int(port)
        if "hearth: ready" in text:
            ports["ready"] = True
        if process.poll() is not None:
            raise RuntimeError("hearth exited:\n" + text)
        time.sleep(0.05)
    assert "ready" in ports, log_path.read_text(errors="replace")
    try:
        yield Server(ports, log_path)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1400,950",
              "--disable-dev-shm-usage"):
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver, condition, seconds=WAIT_S):
    # A live view re-renders as events arrive: an element found a moment ago may be replaced.
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def visible(selector):
    return EC.visibility_of_element_located((By.CSS_SELECTOR, selector))


def shot(driver, name):
    time.sleep(0.3)  # let the last render settle
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def sign_up(hearth, email):
    status, body = http("POST", hearth.url("auth", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake"),
                        {"email": email, "password": "secret123", "returnSecureToken": True})
    assert status == 200, body
    return body["localId"], body["idToken"]


def page_checks(driver):
    """Keyboard: Tab from the page start reaches a link or button with a visible focus outline.
    Contrast: the body text and the nav links are at least WCAG AA (4.5:1) on their background."""
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    active = driver.switch_to.active_element
    assert active.tag_name in ("a", "button", "input", "select", "textarea"), active.tag_name
    ratios = driver.execute_script(CONTRAST_JS)
    for what, ratio in ratios.items():
        assert ratio >= 4.5, f"{what}: contrast {ratio:.2f} < 4.5"


CONTRAST_JS = """
function rgb(s) { const m = s.match(/[\\d.]+/g).map(Number); return m.length > 3 && m[3] === 0 ? null : m; }
function bg(el) { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor); if (c) return c; } return [255,255,255]; }
function lum(c) { const [r,g,b] = c.slice(0,3).map(v => { v /= 255; return v <= 0.03928 ? v/12.92 : Math.pow((v+0.055)/1.055, 2.4); }); return 0.2126*r + 0.7152*g + 0.0722*b; }
function ratio(el) { const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg(el)); return (Math.max(a,b)+0.05)/(Math.min(a,b)+0.05); }
const out = {body: ratio(document.body)};
document.querySelectorAll('nav a').forEach((a, i) => { out['nav ' + a.textContent.trim()] = ratio(a); });
return out;
"""


# --------------------------------------------------------------------------- the flows


def test_overview_lists_every_emulator(hearth, browser):
    browser.get(hearth.url("ui", "/#/"))
    body = wait(browser, visible("main"))
    wait(browser, lambda d: str(hearth.ports["firestore"]) in d.find_element(By.TAG_NAME, "main").text)
    text = browser.find_element(By.TAG_NAME, "main").text
    for name in ("firestore", "auth", "functions", "hub"):
        assert str(hearth.ports[name]) in text, f"{name} port missing from the overview:\n{text}"
    assert PROJECT in text
    assert body is not None
    page_checks(browser)
    shot(browser, "overview")


def test_browse_to_a_feed_item_written_by_send_message(hearth, browser):
    lat, lng = 45.4642, 9.19
    alice, alice_token = sign_up(hearth, f"alice-{uuid.uuid4().hex[:6]}@x.io")
    bob, _ = sign_up(hearth, f"bob-{uuid.uuid4().hex[:6]}@x.io")
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for uid, dlat in ((alice, 0.0), (bob, 0.0003)):
        fields = {"lat": {"doubleValue": lat + dlat}, "lng": {"doubleValue": lng},
                  "geohash": {"stringValue": geohash(lat + dlat, lng)}, "updatedAt": {"timestampValue": now}}
        if uid == bob:  # FCM refuses this token as unregistered; the outbox lists it (functions page)
            fields["fcmToken"] = {"stringValue": UNREGISTERED_TOKEN}
        status, body = http(
            "PATCH", hearth.url("firestore", f"{hearth.documents}/presence/{uid}"), {"fields": fields},
            {"Authorization": "Bearer owner"})
        assert status == 200, body
    text = f"hello from the UI test {uuid.uuid4().hex[:6]}"
    status, body = http("POST", hearth.url("functions", f"/{PROJECT}/us-central1/sendMessage"),
                        {"data": {"text": text, "kind": "whisper", "lat": lat, "lng": lng}},
                        {"Authorization": f"Bearer {alice_token}"})
    assert status == 200, body
    browser.get(hearth.url("ui", f"/#/firestore/users/{bob}/feed"))
    item = wait(browser, visible('[data-testid="doc-item"]'))
    item.click()
    wait(browser, lambda d: text in " ".join(
        e.text for e in d.find_elements(By.CSS_SELECTOR, '[data-testid="field-row"][data-field="text"]')))
    page_checks(browser)
    shot(browser, "firestore-feed-item")


def test_an_edit_in_the_ui_reaches_a_python_listener(hearth, browser, monkeypatch):
    from google.auth.credentials import AnonymousCredentials
    from google.cloud import firestore

    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", f"127.0.0.1:{hearth.ports['firestore']}")
    status, _ = http("PATCH", hearth.url("firestore", f"{hearth.documents}/notes/n1"),
                     {"fields": {"title": {"stringValue": "before"}, "count": {"integerValue": "1"}}},
                     {"Authorization": "Bearer owner"})
    assert status == 200
    client = firestore.Client(project=PROJECT, credentials=AnonymousCredentials())
    seen, got = [], threading.Event()

    def on_snapshot(snapshots, changes, read_time):
        for s in snapshots:
            seen.append(s.get("title"))
            if s.get("title") == "after":
                got.set()

    watch = client.document("notes/n1").on_snapshot(on_snapshot)
    try:
        browser.get(hearth.url("ui", "/#/firestore/notes/n1"))
        row = wait(browser, visible('[data-testid="field-row"][data-field="title"]'))
        row.find_element(By.CSS_SELECTOR, '[data-testid="edit-field"]').click()
        box = wait(browser, visible("#field-value-input"))
        box.clear()
        box.send_keys("after")
        shot(browser, "firestore-edit-field")
        browser.find_element(By.ID, "field-save").click()
        assert got.wait(WAIT_S), f"the listener saw only {seen}"
        wait(browser, lambda d: "after" in d.find_element(
            By.CSS_SELECTOR, '[data-testid="field-row"][data-field="title"]').text)
        status, doc = http("GET", hearth.url("firestore", f"{hearth.documents}/notes/n1"),
                           headers={"Authorization": "Bearer owner"})
        assert doc["fields"]["count"] == {"integerValue": "1"}, "the other field is untouched"
        assert doc["fields"]["title"] == {"stringValue": "after"}
    finally:
        watch.unsubscribe()
        client.close()


def test_a_denied_request_opens_its_explanation(hearth, browser):
    mallory, token = sign_up(hearth, f"mallory-{uuid.uuid4().hex[:6]}@x.io")
    status, body = http("GET", hearth.url("firestore", f"{hearth.documents}/presence/someone-else"),
                        headers={"Authorization": f"Bearer {token}"})
    assert status == 403, body
    browser.get(hearth.url("ui", "/#/requests"))
    row = wait(browser, visible('[data-testid="request-row"][data-verdict="deny"]'))
    assert "presence/someone-else" in row.text
    row.click()
    detail = wait(browser, visible("#request-detail"))
    wait(browser, lambda d: "presence" in detail.text and "false" in detail.text)
    highlighted = detail.find_elements(By.CSS_SELECTOR, ".hl")
    assert highlighted, "no rules line is highlighted"
    rules = (REPO / "firebase" / "firestore.rules").read_text().splitlines()
    line = next(int(m) for m in re.findall(r"L(\d+)", body["error"]["message"]))
    assert any(rules[line - 1].strip() in h.text for h in highlighted), (
        f"line {line} ({rules[line - 1].strip()!r}) not among the highlighted: {[h.text for h in highlighted]}")
    page_checks(browser)
    shot(browser, "requests-denial-explained")


def test_add_an_auth_user_in_the_ui_and_sign_in_with_it(hearth, browser):
    email = f"carol-{uuid.uuid4().hex[:6]}@x.io"
    browser.get(hearth.url("ui", "/#/auth"))
    wait(browser, visible("#user-email")).send_keys(email)
    browser.find_element(By.ID, "user-password").send_keys("carol-secret")
    browser.find_element(By.ID, "user-name").send_keys("Carol")
    browser.find_element(By.ID, "add-user").click()
    wait(browser, lambda d: any(email in r.text for r in d.find_elements(By.CSS_SELECTOR, '[data-testid="user-row"]')))
    status, body = http("POST", hearth.url("auth", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake"),
                        {"email": email, "password": "carol-secret", "returnSecureToken": True})
    assert status == 200, body
    status, looked = http("POST", hearth.url("auth", "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake"),
                          {"idToken": body["idToken"]})
    assert status == 200, looked
    assert looked["users"][0]["displayName"] == "Carol"
    page_checks(browser)
    shot(browser, "auth-users")


def test_the_users_table_is_live(hearth, browser):
    """A user who signs up in an app, and one deleted by a test, show in the open Authentication
    view without Refresh (the UI's `auth` event)."""
    browser.get(hearth.url("ui", "/#/auth"))
    wait(browser, visible("#users-table"))
    email = f"dave-{uuid.uuid4().hex[:6]}@x.io"
    uid, _ = sign_up(hearth, email)

    def row_of(d):
        return [r for r in d.find_elements(By.CSS_SELECTOR, '[data-testid="user-row"]') if email in r.text]

    wait(browser, row_of)
    status, body = http("POST", hearth.url("auth", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:delete"),
                        {"localId": uid}, headers={"Authorization": "Bearer owner"})
    assert status == 200, body
    wait(browser, lambda d: not row_of(d))


def test_rules_coverage_and_functions_pages(hearth, browser):
    browser.get(hearth.url("ui", "/#/rules"))
    wait(browser, lambda d: "rules_version" in d.find_element(By.TAG_NAME, "main").text)
    page_checks(browser)
    shot(browser, "rules-coverage")
    browser.get(hearth.url("ui", "/#/functions"))
    run = wait(browser, visible('[data-testid="run-function"]'))
    # Trigger delivery's state (the app has no trigger: nothing queued, nothing delivered).
    wait(browser, lambda d: d.find_element(By.ID, "trigger-stats").text.startswith("Triggers on · backlog 0 · 0 delivered"))
    run.click()
    wait(browser, lambda d: "deleted" in d.find_element(By.TAG_NAME, "main").text)
    wait(browser, lambda d: any(UNREGISTERED_TOKEN in r.text and "unregistered" in r.text
                                for r in d.find_elements(By.CSS_SELECTOR, '[data-testid="rejected-row"]')))
    page_checks(browser)
    shot(browser, "functions")


# --------------------------------------------------------------------------- gaps closed against the official UI

from selenium.webdriver.support.ui import Select  # noqa: E402

OWNER = {"Authorization": "Bearer owner"}


def accounts_url(hearth, op=""):
    return hearth.url("auth", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts{op}")


def all_users(hearth):
    status, body = http("POST", accounts_url(hearth, ":batchGet?maxResults=1000"), {}, OWNER)
    assert status == 200, body
    return body.get("users", [])


def shown_uids(driver):
    return [r.get_attribute("data-uid") for r in driver.find_elements(By.CSS_SELECTOR, '[data-testid="user-row"]')]


def shown_doc_ids(driver):
    return [a.get_attribute("data-id") for a in driver.find_elements(By.CSS_SELECTOR, '[data-testid="doc-item"]')]


def test_search_users_by_uid_email_name_and_phone(hearth, browser):
    tag = uuid.uuid4().hex[:6]
    made = {}
    for key, body in (("erin", {"email": f"erin-{tag}@x.io", "password": "secret123", "displayName": f"Erin {tag}"}),
                      ("frank", {"email": f"frank-{tag}@x.io", "password": "secret123", "phoneNumber": f"+1 555 7{int(tag, 16) % 10**6:06d}"}),
                      ("gina", {"displayName": "Gina"}), ("hank", {"email": f"hank-{uuid.uuid4().hex[:6]}@x.io"})):
        status, r = http("POST", accounts_url(hearth), body, OWNER)
        assert status == 200, r
        made[key] = r["localId"]
    browser.get(hearth.url("ui", "/#/auth"))
    wait(browser, lambda d: set(made.values()) <= set(shown_uids(d)))
    total = len(shown_uids(browser))
    assert total >= 4, "a user no search below matches"
    search = browser.find_element(By.ID, "user-search")
    for text, expected in ((tag, {made["erin"], made["frank"]}), (f"ERIN {tag}", {made["erin"]}),
                           (f"7{int(tag, 16) % 10**6:06d}", {made["frank"]}), (made["gina"][3:15], {made["gina"]})):
        search.clear()
        search.send_keys(text)
        wait(browser, lambda d: set(shown_uids(d)) == expected)
        assert f"{len(expected)} of" in browser.find_element(By.ID, "user-count").text
    search.clear()
    search.send_keys("no-such-user-anywhere")
    wait(browser, lambda d: not shown_uids(d) and "No users match" in d.find_element(By.ID, "user-rows").text)
    search.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: len(shown_uids(d)) == total)
    search.send_keys(tag)
    wait(browser, lambda d: len(shown_uids(d)) == 2)
    page_checks(browser)
    shot(browser, "auth-search")
    search.clear()
    search.send_keys(Keys.ESCAPE)


def test_add_and_edit_a_phone_user_with_a_photo(hearth, browser):
    phone, photo = f"+44 20 7946 {uuid.uuid4().int % 10**4:04d}", "https://example.com/p.png"
    browser.get(hearth.url("ui", "/#/auth"))
    wait(browser, visible("#user-phone")).send_keys(phone)
    browser.find_element(By.ID, "user-photo").send_keys(photo)
    browser.find_element(By.ID, "add-user").click()
    wait(browser, lambda d: any(phone in r.text for r in d.find_elements(By.CSS_SELECTOR, '[data-testid="user-row"]')))
    user = next(u for u in all_users(hearth) if u.get("phoneNumber") == phone)
    assert user.get("photoUrl") == photo and "email" not in user, user
    assert [p["providerId"] for p in user["providerUserInfo"]] == ["phone"], user
    row = browser.find_element(By.CSS_SELECTOR, f'[data-testid="user-row"][data-uid="{user["localId"]}"]')
    row.find_element(By.CSS_SELECTOR, '[data-testid="edit-user"]').click()
    new_phone = phone[:-4] + "0000"
    box = wait(browser, visible("#edit-phone"))
    assert box.get_attribute("value") == phone
    box.clear()
    box.send_keys(new_phone)
    photo_box = browser.find_element(By.ID, "edit-photo")
    assert photo_box.get_attribute("value") == photo
    photo_box.clear()
    browser.find_element(By.ID, "edit-save").click()
    wait(browser, lambda d: not d.find_elements(By.ID, "edit-phone"))
    after = next(u for u in all_users(hearth) if u["localId"] == user["localId"])
    assert after.get("phoneNumber") == new_phone and "photoUrl" not in after, after


def test_the_one_account_per_email_setting(hearth, browser):
    config = hearth.url("auth", f"/emulator/v1/projects/{PROJECT}/config")

    def allow():
        status, body = http("GET", config)
        assert status == 200, body
        return body["signIn"]["allowDuplicateEmails"]

    assert allow() is False
    browser.get(hearth.url("ui", "/#/auth"))
    box = wait(browser, lambda d: (lambda b: b if b.is_enabled() else None)(d.find_element(By.ID, "one-account-per-email")))
    assert box.is_selected(), "one account per email address is the default"
    box.click()
    wait(browser, lambda d: allow() is True)
    browser.refresh()
    box = wait(browser, lambda d: (lambda b: b if b.is_enabled() else None)(d.find_element(By.ID, "one-account-per-email")))
    assert not box.is_selected(), "the page shows the setting in force"
    assert "another account" in browser.find_element(By.ID, "one-account-hint").text
    box.click()
    wait(browser, lambda d: allow() is False)
    wait(browser, lambda d: d.find_element(By.ID, "one-account-per-email").is_selected())


def seed_ranked(hearth, collection):
    """60 documents r00…r59: score (i*7) % 60 (each of 0…59 once), team red for i % 3 == 0, tags [t(i%4)]."""
    writes = []
    for i in range(60):
        writes.append({"update": {
            "name": f"projects/{PROJECT}/databases/(default)/documents/{collection}/r{i:02d}",
            "fields": {"score": {"integerValue": str(i * 7 % 60)},
                       "team": {"stringValue": "red" if i % 3 == 0 else "blue"},
                       "tags": {"arrayValue": {"values": [{"stringValue": f"t{i % 4}"}]}}}}})
    status, body = http("POST", hearth.url("firestore", f"{hearth.documents}:commit"), {"writes": writes}, OWNER)
    assert status == 200, body


def apply_filter(driver, field, op, value_type=None, value=None, sort=""):
    toggle = wait(driver, visible("#filter-toggle"))
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    box = wait(driver, visible("#filter-field"))
    box.clear()
    box.send_keys(field)
    Select(driver.find_element(By.ID, "filter-op")).select_by_value(op)
    if value_type:
        Select(driver.find_element(By.ID, "filter-type")).select_by_value(value_type)
    if value is not None:
        v = driver.find_element(By.ID, "filter-value")
        v.clear()
        v.send_keys(value)
    driver.find_element(By.ID, f"filter-sort-{sort or 'none'}").click()
    driver.find_element(By.ID, "filter-apply").click()
    wait(driver, lambda d: not d.find_elements(By.ID, "filter-form"))


def test_a_firestore_filter_returns_the_matching_documents_sorted_and_paged(hearth, browser):
    coll = f"ranked{uuid.uuid4().hex[:4]}"
    seed_ranked(hearth, coll)
    score = {f"r{i:02d}": i * 7 % 60 for i in range(60)}
    browser.get(hearth.url("ui", f"/#/firestore/{coll}"))
    wait(browser, lambda d: len(shown_doc_ids(d)) == 50)
    # score >= 5, highest first: 55 documents, a page of 50 and then 5 after the cursor.
    apply_filter(browser, "score", ">=", "number", "5", sort="desc")
    expected = sorted((k for k, v in score.items() if v >= 5), key=lambda k: -score[k])
    wait(browser, lambda d: shown_doc_ids(d) == expected[:50])
    assert "50 matching documents loaded (more available)" in browser.find_element(By.ID, "doc-count").text
    assert 'where("score", ">=", 5)' in browser.find_element(By.ID, "filter-summary").text
    shot(browser, "firestore-filter")
    browser.find_element(By.ID, "load-more").click()
    wait(browser, lambda d: shown_doc_ids(d) == expected)
    assert not browser.find_elements(By.ID, "load-more")
    # Strings, one per line, for a list operator; no sort: by document id.
    apply_filter(browser, "tags", "array-contains-any", "string", "t1\nt2")
    wait(browser, lambda d: shown_doc_ids(d) == [f"r{i:02d}" for i in range(60) if i % 4 in (1, 2)])
    # JSON: a list of values for not-in.
    apply_filter(browser, "team", "not-in", "JSON", '"blue"\n"green"')
    wait(browser, lambda d: shown_doc_ids(d) == [f"r{i:02d}" for i in range(0, 60, 3)])
    # The filter is kept for its collection while the view is open: a document opens beside it.
    browser.find_element(By.CSS_SELECTOR, '[data-testid="doc-item"][data-id="r03"]').click()
    wait(browser, lambda d: any("red" in r.text for r in d.find_elements(By.CSS_SELECTOR, '[data-testid="field-row"][data-field="team"]')))
    assert shown_doc_ids(browser) == [f"r{i:02d}" for i in range(0, 60, 3)]
    page_checks(browser)
    browser.find_element(By.ID, "clear-filter").click()
    wait(browser, lambda d: shown_doc_ids(d) == [f"r{i:02d}" for i in range(50)])
    assert not browser.find_elements(By.ID, "filter-summary")


def test_a_filter_reruns_its_query_on_a_live_write(hearth, browser):
    coll = f"ranked{uuid.uuid4().hex[:4]}"
    seed_ranked(hearth, coll)
    score = {f"r{i:02d}": i * 7 % 60 for i in range(60)}
    browser.get(hearth.url("ui", f"/#/firestore/{coll}"))
    wait(browser, lambda d: len(shown_doc_ids(d)) == 50)
    apply_filter(browser, "score", ">", "number", "49", sort="desc")
    top = sorted((k for k, v in score.items() if v > 49), key=lambda k: -score[k])
    wait(browser, lambda d: shown_doc_ids(d) == top)

    def put(doc, n):
        status, body = http("PATCH", hearth.url("firestore", f"{hearth.documents}/{coll}/{doc}?updateMask.fieldPaths=score"),
                            {"fields": {"score": {"integerValue": str(n)}}}, OWNER)
        assert status == 200, body

    # A new document goes where the query puts it (first: the highest score), not in id order.
    put("zz-top", 1000)
    wait(browser, lambda d: shown_doc_ids(d) == ["zz-top"] + top)
    # A document modified out of the filter leaves the list; one modified into it joins it.
    put("zz-top", 1)
    put(top[0], 0)
    put("r00", 55)  # score 0 before
    expected = sorted([k for k in top[1:]] + ["r00"], key=lambda k: -(55 if k == "r00" else score[k]))
    wait(browser, lambda d: shown_doc_ids(d) == expected)
    # Deleted: gone.
    status, _ = http("DELETE", hearth.url("firestore", f"{hearth.documents}/{coll}/r00"), headers=OWNER)
    assert status == 200
    wait(browser, lambda d: shown_doc_ids(d) == [k for k in expected if k != "r00"])


def test_filter_the_invocations(hearth, browser):
    _, token = sign_up(hearth, f"ivan-{uuid.uuid4().hex[:6]}@x.io")
    marker = f"needle-{uuid.uuid4().hex[:6]}"
    status, body = http("POST", hearth.url("functions", f"/{PROJECT}/us-central1/sendMessage"),
                        {"data": {"text": marker, "kind": "nonsense-kind", "lat": 1, "lng": 2}},
                        {"Authorization": f"Bearer {token}"})
    assert status != 200, "an invalid kind fails, so there is an invocation with an error"
    status, _ = http("POST", hearth.url("functions", f"/emulator/v1/projects/{PROJECT}/functions/cleanupPresence:run"), {})
    assert status == 200
    browser.get(hearth.url("ui", "/#/functions"))
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, '[data-testid="invocation-row"]')) >= 2)

    def rows(d):
        return [(r.get_attribute("data-name"), r.get_attribute("data-outcome"))
                for r in d.find_elements(By.CSS_SELECTOR, '[data-testid="invocation-row"]')]

    total = len(rows(browser))
    text = browser.find_element(By.ID, "invocation-filter")
    text.send_keys(marker)
    wait(browser, lambda d: rows(d) == [("sendMessage", "error")])
    text.clear()
    text.send_keys("stale presence")
    wait(browser, lambda d: rows(d) and {n for n, _ in rows(d)} == {"cleanupPresence"})
    text.clear()
    text.send_keys("x")
    text.send_keys(Keys.BACKSPACE)
    Select(browser.find_element(By.ID, "invocation-level")).select_by_value("WARNING")
    wait(browser, lambda d: not rows(d) and "No invocations match" in d.find_element(By.ID, "invocation-rows").text)
    Select(browser.find_element(By.ID, "invocation-level")).select_by_value("ERROR")
    wait(browser, lambda d: rows(d) and all(o == "error" for _, o in rows(d)))
    page_checks(browser)
    shot(browser, "functions-filtered")
    Select(browser.find_element(By.ID, "invocation-level")).select_by_value("")
    wait(browser, lambda d: len(rows(d)) >= total)


def test_clear_all_users_asks_first(hearth, browser):
    """Last of the file: it deletes every user."""
    sign_up(hearth, f"zed-{uuid.uuid4().hex[:6]}@x.io")
    browser.get(hearth.url("ui", "/#/auth"))
    wait(browser, lambda d: shown_uids(d))
    before = len(all_users(hearth))
    browser.find_element(By.ID, "clear-users").click()
    wait(browser, EC.alert_is_present()).dismiss()
    time.sleep(0.5)
    assert len(all_users(hearth)) == before, "dismissed: nothing deleted"
    browser.find_element(By.ID, "clear-users").click()
    alert = wait(browser, EC.alert_is_present())
    assert "ALL users" in alert.text
    alert.accept()
    wait(browser, lambda d: not shown_uids(d) and "No users" in d.find_element(By.ID, "user-rows").text)
    assert all_users(hearth) == []
    shot(browser, "auth-cleared")


def test_a_moved_clock_is_shown(hearth, browser):
    """While a test freezes the emulators' clock the header says so, and the overview names it."""
    status, body = http("PUT", hearth.url("firestore", "/emulator/v1/clock"), {"freeze": "2031-01-02T03:04:05Z"})
    assert status == 200, body
    try:
        browser.get(hearth.url("ui", "/#/"))
        badge = wait(browser, visible("#clock-indicator"))
        assert "2031-01-02T03:04:05" in badge.text
        wait(browser, lambda d: "frozen at 2031-01-02T03:04:05" in d.find_element(By.ID, "overview-clock").text)
        shot(browser, "clock-frozen")
    finally:
        http("DELETE", hearth.url("firestore", "/emulator/v1/clock"))
    browser.refresh()  # the same URL: get() would not reload the page
    wait(browser, lambda d: "system clock" in d.find_element(By.ID, "overview-clock").text)
    assert not browser.find_element(By.ID, "clock-indicator").is_displayed()
