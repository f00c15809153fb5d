#!/usr/bin/env python3
"""How often `blog`'s slugs of non-Latin titles are Pelican's, per script (issue 29).

Usage: python3 bench/slugs.py --blog BIN [--script NAME ...] [--json FILE] [--show N]

Pelican makes a post's slug with `slugify(title)`, which spells the title in ASCII with Unidecode,
character by character; a blog migrated from Pelican keeps its URLs only if `blog` (preset `pelican`)
spells every title the same way. For each script this builds one blog of posts with `blog build` and
reads each post's URL back from `blog list --format json`, then compares it with Pelican's own
`slugify` of the same title (`pip install pelican unidecode`):

  code points  one post per assigned letter or digit of the script's blocks (title `t<hex> <char>`,
               the prefix keeps every slug apart)
  titles       one post per real-looking title of this file's own writing (below)

Prints a markdown table: per script, the letters and titles whose slug agrees, and (with --show N)
up to N disagreements each. --json FILE writes every disagreement.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata

from pelican.settings import DEFAULT_CONFIG
from pelican.utils import slugify

# name -> the blocks (first, last code point) whose letters and digits are measured
SCRIPTS = {
    "Latin": [(0x00C0, 0x024F), (0x1E00, 0x1EFF)],
    "Greek": [(0x0370, 0x03FF)],
    "Cyrillic": [(0x0400, 0x04FF)],
    "Hebrew": [(0x0590, 0x05FF)],
    "Arabic": [(0x0600, 0x06FF)],
    "Devanagari": [(0x0900, 0x097F)],
    "Thai": [(0x0E00, 0x0E7F)],
    "Hangul": [(0xAC00, 0xD7A3)],
    "Hangul jamo": [(0x1100, 0x11FF), (0x3130, 0x318F)],
    "Kana": [(0x3040, 0x30FF)],
    "Chinese": [(0x4E00, 0x9FA5)],
}

# Titles as blogs in each script write them (of this file's own writing, not taken from any blog).
TITLES = {
    "Latin": [
        "Café crème à Zürich", "Ærøskøbing om vinteren", "Łódź i Kraków nocą", "Çok güzel bir gün", "Straße der Besten",
        "Über die Brücke", "Señales de humo", "Ação e reação", "Vạn sự khởi đầu nan", "Þórsmörk gönguleið",
    ],
    "Greek": ["Καλημέρα κόσμε", "Η Αθήνα το καλοκαίρι", "Ψηφιακή υπογραφή", "Ξενοδοχεία στη Χαλκιδική", "Μαθαίνοντας Python"],
    "Cyrillic": [
        "Привет, мир!", "Жизнь в Хабаровске", "Ёлка и щука", "Україна сьогодні", "Як навчитися програмувати",
        "Български език", "Српски језик и ћирилица", "Шаблоны проектирования", "Юникод и я", "Съешь же ещё этих булок",
    ],
    "Hebrew": [
        "שלום עולם", "מדריך למתחילים", "איך ללמוד תכנות", "הבלוג החדש שלי", "חדשות מהשבוע", "ירושלים בחורף",
        "טיפים לכתיבת קוד נקי", "מה חדש בגרסה", "סיכום השנה", "פייתון למתחילים", "בדיקות אוטומטיות", "ספרים שקראתי",
        "ארוחת בוקר ישראלית", "צילום בטבע", "עבודה מהבית", "שְׁלוֹם לְכֻלָּם", "מחשבות על עיצוב", "הרצאה בכנס",
    ],
    "Arabic": [
        "مرحبا بالعالم", "كيف تتعلم البرمجة", "مدونتي الجديدة", "أخبار الأسبوع", "دليل المبتدئين", "القاهرة في الشتاء",
        "نصائح لكتابة كود نظيف", "ما الجديد في الإصدار", "ملخص السنة", "بايثون للمبتدئين", "الاختبارات الآلية",
        "كتب قرأتها", "العمل من المنزل", "التصوير في الطبيعة", "أفكار حول التصميم", "محاضرة في المؤتمر",
        "السلام عليكم", "قهوة الصباح", "الذكاء الاصطناعي", "رحلة إلى المغرب",
    ],
    "Devanagari": [
        "नमस्ते दुनिया", "प्रोग्रामिंग कैसे सीखें", "मेरा नया ब्लॉग", "इस सप्ताह की खबरें", "शुरुआती लोगों के लिए गाइड",
        "दिल्ली में सर्दी", "साफ़ कोड लिखने के सुझाव", "नए संस्करण में क्या है", "साल का सारांश", "पायथन सीखें",
        "स्वचालित परीक्षण", "किताबें जो मैंने पढ़ीं", "घर से काम", "प्रकृति की फ़ोटोग्राफ़ी", "डिज़ाइन पर विचार",
        "सम्मेलन में भाषण", "हिंदी भाषा", "भारत की यात्रा", "मराठी आणि हिंदी", "संस्कृत श्लोक",
    ],
    "Thai": [
        "สวัสดีชาวโลก", "วิธีเรียนเขียนโปรแกรม", "บล็อกใหม่ของฉัน", "ข่าวประจำสัปดาห์", "คู่มือสำหรับผู้เริ่มต้น",
        "กรุงเทพในฤดูหนาว", "เคล็ดลับการเขียนโค้ด", "มีอะไรใหม่ในเวอร์ชันนี้", "สรุปประจำปี", "ไพธอนสำหรับผู้เริ่มต้น",
        "การทดสอบอัตโนมัติ", "หนังสือที่ฉันอ่าน", "ทำงานที่บ้าน", "ถ่ายภาพธรรมชาติ", "ความคิดเกี่ยวกับการออกแบบ",
        "บรรยายในงานสัมมนา", "ภาษาไทย", "เที่ยวเชียงใหม่", "กาแฟยามเช้า", "ปัญญาประดิษฐ์",
    ],
    "Hangul": [
        "한국어 블로그", "안녕하세요 세계", "프로그래밍 배우는 법", "새 블로그를 시작합니다", "이번 주 소식", "초보자를 위한 안내",
        "서울의 겨울", "깨끗한 코드를 쓰는 요령", "새 버전의 변화", "올해를 돌아보며", "파이썬 입문", "자동화된 테스트",
        "읽은 책들", "재택근무 이야기", "자연 사진", "디자인에 대한 생각", "학회 발표", "맛있는 떡볶이", "닭갈비와 막걸리",
        "읽기 쉬운 글쓰기",
    ],
    "Kana": ["スマホで送るSMS", "ひらがなとカタカナ", "コンピューター入門", "ふじさんに登る", "ジャズとヂ"],
    "Chinese": [
        "中文博客", "学习编程的方法", "我的新博客", "本周新闻", "新手指南", "北京的冬天", "写出干净代码的技巧",
        "新版本有什么变化", "年度总结", "了解一下", "中華民國", "重要的事情说三遍", "长城与长江", "银行行长",
    ],
}


def measured(script):
    """The code points and the titles of `script`, each as (label, text)."""
    items = []
    for first, last in SCRIPTS[script]:
        for cp in range(first, last + 1):
            ch = chr(cp)
            if unicodedata.category(ch)[0] in "LN":
                items.append(("code point", ch))
    items += [("title", t) for t in TITLES.get(script, [])]
    return items


def blog_slugs(blog, texts):
    """The slug `blog build` (preset `pelican`) gives each of `texts` as a post title, via `blog list`."""
    root = tempfile.mkdtemp(prefix="slugs-")
    try:
        with open(os.path.join(root, "blog.yml"), "w", encoding="utf-8") as f:
            f.write("title: Slugs\nbase_url: https://example.org/\ntimezone: UTC\npermalinks: pelican\n")
        posts = os.path.join(root, "content", "posts")
        os.makedirs(posts)
        for n, text in enumerate(texts):
            with open(os.path.join(posts, f"{n}.md"), "w", encoding="utf-8") as f:
                f.write(f"Title: t{n} {text}\nDate: 2021-01-01\n\nx\n")
        run = subprocess.run([blog, "list", "--format", "json"], cwd=root, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"blog list failed: {run.stderr[-2000:]}")
        slugs = [None] * len(texts)
        for doc in json.loads(run.stdout):
            n = int(os.path.basename(doc["source"])[:-3])
            slugs[n] = doc["url"].strip("/").removesuffix(".html")
        return slugs
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--blog", required=True, help="the blog binary")
    parser.add_argument("--script", action="append", choices=list(SCRIPTS), help="only these scripts")
    parser.add_argument("--json", help="write every disagreement to this file")
    parser.add_argument("--show", type=int, default=0, help="print up to N disagreements per script")
    args = parser.parse_args()
    blog = os.path.abspath(args.blog)
    subs = DEFAULT_CONFIG["SLUG_REGEX_SUBSTITUTIONS"]
    report = {}
    print("| script | code points agreeing | titles agreeing |")
    print("| --- | --- | --- |")
    for script in args.script or list(SCRIPTS):
        items = measured(script)
        ours = blog_slugs(blog, [text for _, text in items])
        counts = {"code point": [0, 0], "title": [0, 0]}
        wrong = []
        for n, ((label, text), slug) in enumerate(zip(items, ours)):
            theirs = slugify(f"t{n} {text}", regex_subs=subs)
            counts[label][1] += 1
            if slug == theirs:
                counts[label][0] += 1
            else:
                wrong.append({"kind": label, "text": text, "pelican": theirs, "blog": slug})
        report[script] = wrong

        def cell(label):
            good, total = counts[label]
            return f"{good:,}/{total:,} ({100 * good / total:.1f}%)" if total else "-"

        print(f"| {script} | {cell('code point')} | {cell('title')} |", flush=True)
        for w in wrong[: args.show]:
            print(f"    {w['kind']} {w['text']!r}: pelican {w['pelican']!r}, blog {w['blog']!r}", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
