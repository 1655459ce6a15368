"""One-word names of the towns of the countries that write German (Germany,
Austria, Switzerland, Liechtenstein, Luxembourg) of 15,000 people or more,
from GeoNames (https://www.geonames.org/, CC BY 4.0): a German story names them
("Offenburg", "Wunsiedel"). Names of five letters or more that the world's list
(``gazetteer.py``) lacks, without those that are also German words (pure data,
written by ``bench/places.py``).
"""

from typing import Final

_NAMES: Final = """
    Aarau Achern Achim Adlershof Adliswil Ahaus Ahrensburg Aichach Albstadt Alfeld Alfter Allschwil
    Alsdorf Alsergrund Alsfeld Alsterdorf Alt-Hohenschönhausen Altena Altenburg Altglienicke
    Altona-Altstadt Altona-Nord Alzey Amberg Amstetten Andernach Andritz Angermünde
    Annaberg-Buchholz Ansbach Ansfelden Aplerbeck Apolda Arheilgen Arnsberg Arnstadt Aschaffenburg
    Ascheberg Aschersleben Aspern Attendorn Auerbach Aurich Babenhausen Backnang Baden-Baden
    Baesweiler Baiersbronn Balingen Bamberg Barmbek-Nord Barmbek-Süd Bassum Baumschulenweg Baunatal
    Bautzen Bayreuth Beckingen Beckum Bedburg Bellinzona Bemerode Bendorf Bensheim Bergheim
    Bergkamen Bergneustadt Bernburg Beverungen Bexbach Biebrich Biesdorf Bietigheim-Bissingen
    Bilderstöckchen Billstedt Bitterfeld-Wolfen Blankenburg Blankenfelde-Mahlow Blasewitz
    Blieskastel Blomberg Bludenz Bobingen Bocholt Bochum-Werne Bockum Bogenhausen Boppard Borna
    Bornheim Bothfeld Brackel Brackenheim Brakel Bramsche Bregenz Bremervörde Brigittenau Brilon
    Britz Bruchköbel Bruchsal Bruckmühl Brühl Buckow Burgdorf Burghausen Burglesum Burscheid
    Butzbach Buxtehude Böblingen Bönen Bückeburg Büdingen Bülach Büren Bürstadt Carouge
    Castrop-Rauxel Celle Charlottenburg-Nord Clausthal-Zellerfeld Cloppenburg Coburg Coesfeld Coswig
    Cottbus Crailsheim Crimmitschau Cuxhaven Dachau Dahlem Deggendorf Delbrück Delitzsch Delmenhorst
    Dessau Detmold Deutz Dieburg Diepholz Dietikon Dietzenbach Dillenburg Dillingen Dingolfing
    Dinslaken Ditzingen Donaueschingen Donauwörth Dormagen Dornbirn Dorsten Dorstfeld Dotzheim
    Dreieich Drensteinfurt Dudelange Duderstadt Dulsberg Döbeln Döbling Dübendorf Dülmen Düren
    Düsseldorf-Pempelfort Eberbach Eberswalde Eckernförde Edewecht Eggenberg
    Eggenstein-Leopoldshafen Ehingen Eidelstedt Eilbek Eilenburg Einbeck Einsiedeln Eisenach
    Eisenhüttenstadt Eisenzicken Eislingen Eitorf Ellwangen Elmschenhagen Elmshorn Elsdorf Eltville
    Emden Emmen Emmendingen Emmerich Emsdetten Engelskirchen Ennepetal Ennigerloh Eppelborn
    Eppendorf Eppingen Erding Erftstadt Erkelenz Erkrath Erwitte Eschborn Eschwege Eselsberg
    Espelkamp Esslingen Ettlingen Euskirchen Eutin Eving Falkensee Farmsen-Berne Fellbach Fennpfuhl
    Filderstadt Finsterwalde Fischeln Flensburg Flörsheim Forchheim Frankenberg Frankenthal
    Frauenfeld Freiberg Freilassing Freising Freital Freudenberg Freudenstadt Fribourg Friedberg
    Friedenau Friedrichsdorf Friedrichsfelde Friedrichshafen Friedrichshagen Friesoythe Frohnau
    Fröndenberg Fulda Fünfhaus Fürstenfeldbruck Fürstenwalde Füssen Gaggenau Ganderkesee Garbsen
    Garching Garmisch-Partenkirchen Gauting Geesthacht Geidorf Geilenkirchen Gelnhausen
    Georgsmarienhütte Geretsried Gerlingen Germering Germersheim Gersthofen Gescher Geseke
    Gevelsberg Gifhorn Gilching Ginsheim-Gustavsburg Gladbeck Glauchau Glinde Gohlis Gonsenheim
    Gorbitz Goslar Gossau Gotha Grefrath Greiz Grenchen Greven Grevenbroich Gries Griesheim Grimma
    Gronau Gropiusstadt Gröbenzell Guben Gummersbach Gunzenhausen Göppingen Görlitz Günzburg Güstrow
    Gütersloh Haiger Hakenfelde Halberstadt Halle-Neustadt Halstenbek Halver Hameln Hamminkeln Haren
    Harpen Harsewinkel Harvestehude Haselhorst Hattersheim Hattingen Hausbruch Hechingen Heidenau
    Heiligenhaus Heiligensee Heinsberg Hellersdorf Helmstedt Hemer Hemmingen Hennigsdorf Herborn
    Herdecke Herford Herisau Hermsdorf Hernals Herrenberg Herten Herzogenaurach Herzogenrath
    Hettstedt Heusenstamm Heusweiler Hiddenhausen Hietzing Hilchenbach Hille Hockenheim Hofgeismar
    Hoheluft-Ost Hohenems Hohenstein-Ernstthal Holzkirchen Holzminden Holzwickede Homburg Horgen
    Hoyerswerda Huckarde Humboldtkolonie Hummelsbüttel Husum Hörde Hörstel Hötting Hövelhof Höxter
    Hückelhoven Hückeswagen Hünfeld Hürth Ibbenbueren Idar-Oberstein Idstein Illertissen Illingen
    Ilmenau Iserlohn Itzehoe Jakomini Johannisthal Josefstadt Jüchen Jülich Kaarst Kaiserslautern
    Kaltenkirchen Kamenz Kamp-Lintfort Karben Karlsfeld Karlshorst Karlstadt Karow Kaufbeuren
    Kaulsdorf Kelheim Kelkheim Kempen Kerpen Kevelaer Kierspe Kirchhain Kirchlengern Kitzingen
    Kladow Kleinmachnow Kleve Klingenstein Klosterneuburg Kloten Klotzsche Kolbermoor Konstanz
    Korbach Korntal Kornwestheim Korschenbroich Kreuzlingen Kreuztal Kriens Kronach Kronberg
    Kulmbach Königsbrunn Königswinter Köniz Köpenick Köthen Künzell Künzelsau Laatzen Lahnstein
    Lampertheim Lancy Landshut Langendreer Langenfeld Langenhagen Langenhorn Lankwitz Lauchhammer
    Lauda-Königshofen Laupheim Lebach Leichlingen Leinfelden-Echterdingen Lemgo Lengerich Lennestadt
    Leonberg Leopoldshöhe Leuben Leutkirch Lichtenberg Lichtenfels Lichtenrade Lichterfelde
    Lilienthal Limbach-Oberfrohna Lindau Linden-Nord Lindlar Lingen Lippstadt Littau Locarno Lohmar
    Loschwitz Losheim Loxstedt Lubnjow Luckenwalde Ludwigsburg Ludwigsfelde Lugano Lurup Lusan
    Lustenau Luzern Löbau Löbtau Lörrach Lübbecke Lüdenscheid Lüdinghausen Lüneburg Lünen
    Lütgendortmund Mahlsdorf Maintal Mariahilf Marienberg Mariendorf Marienfelde Markkleeberg
    Marktoberdorf Marktredwitz Marsberg Martigny-Ville Mayen Mechernich Meckenheim Meerane Meerbusch
    Meiderich Meidling Meinerzhagen Meiningen Meissen Melle Memmingen Menden Meppen Merseburg Merzig
    Meschede Mettmann Metzingen Meyrin Michelstadt Minden Misburg Misburg-Nord Mittweida Moabit
    Monthey Montreux Moosburg Morges Mosbach Munster Muttenz Mödling Mölln Mörfelden-Walldorf
    Mössingen Mühlacker Mühldorf Mühlhausen Müllheim Nagold Nauen Naumburg Neckarsulm Neheim Netphen
    Nettetal Neu-Anspach Neu-Hohenschönhausen Neu-Isenburg Neu-Ulm Neubrandenburg Neubrück Neuchâtel
    Neuehrenfeld Neuenhagen Neugraben-Fischbek Neukirchen-Vluyn Neumünster Neunkirchen Neuruppin
    Neustrelitz Neuwied Nidda Nidderau Nieder-Ingelheim Niederkassel Niederkrüchten Niederrad
    Niederschönhausen Nienburg Niendorf Nordenham Norderstedt Nordhausen Nordhorn Northeim Nottuln
    Nördlingen Nümbrecht Nürtingen Ober-Ramstadt Oberasbach Oberkirch Oberschöneweide Obertshausen
    Oberursel Ochtrup Odenthal Oelde Oer-Erkenschwick Oerlinghausen Offenburg Ohligs Olching Olsberg
    Olten Opfikon Opladen Oranienburg Oschatz Oschersleben Osdorf Osterholz-Scharmbeck Ostfildern
    Othmarschen Ottensen Overath Oyten Pankow Papenburg Parchim Pasing Passau Penzberg Penzing
    Perchtoldsdorf Petersberg Petershagen Petershausen-West Pfullingen Pfungstadt Pinneberg
    Pirmasens Pirna Plauen Plettenberg Poppenbüttel Pradl Preetz Prenzlau Puchheim Pulheim Pully
    Püttlingen Quedlinburg Querenburg Quickborn Radeberg Radebeul Radevormwald Radolfzell Rahden
    Rahlstedt Rapperswil Rastatt Rastede Ratekau Rathenow Ravensburg Reinach Reinbek Reinheim
    Reinickendorf Remagen Rendsburg Renens Renningen Rheda-Wiedenbrück Rhede Rheinbach Rheinberg
    Rheinfelden Rheinhausen Rheinstetten Ribnitz-Damgarten Riedstadt Riegelsberg Riehen Riesa
    Rietberg Rinteln Rodgau Ronnenberg Rosenheim Rotenburg Rotherbaum Rottenburg Rottweil Rudolstadt
    Rudow Rummelsburg Rösrath Saalfeld Saarlouis Sachsenheim Salzkotten Sangerhausen Sarstedt Sasel
    Schaffhausen Scharnhorst Schifferstadt Schiffweiler Schkeuditz Schleswig Schlüchtern
    Schmalkalden Schmallenberg Schmargendorf Schneeberg Schnelsen Schneverdingen Schopfheim
    Schorndorf Schortens Schramberg Schrobenhausen Schwabach Schwalbach Schwalmstadt Schwalmtal
    Schwanewede Schwarzenberg Schweinfurt Schwelm Schwerin Schwetzingen Schwyz Schönebeck
    Seeheim-Jugenheim Seelze Seevetal Sehnde Seligenstadt Senftenberg Siegburg Sierre Sigmaringen
    Sindelfingen Sinsheim Sinzig Soest Solothurn Soltau Sondershausen Sonneberg Sonthofen Spandau
    Spenge Speyer Sprockhövel Staaken Stadtallendorf Stadthagen Stadtlohn Starnberg Steffisburg
    Steglitz Steilshoop Steinfurt Steinhagen Stellingen Stendal Steyr Stockach Stockelsdorf
    Stockerau Stolberg Straelen Stralsund Straubing Strausberg Stuhr Stuttgart-Ost Sulzbach
    Sulzbach-Rosenberg Sundern Sömmerda Taufkirchen Taunusstein Tegel Telfs Telgte Teltow Tempelhof
    Templin Tettnang Torgau Traun Traunreut Traunstein Treptow Troisdorf Trossingen Tuttlingen
    Tönisvorst Tübingen Uelzen Uerdingen Uetersen Unterhaching Unterkrozingen Uslar Uster Varel
    Vaterstetten Vechelde Vechta Vegesack Velbert Vellmar Verden Vernier Versmold Vevey Viernheim
    Viersen Villach Villingen-Schwenningen Vilshofen Vlotho Voerde Volksdorf Vreden Völklingen
    Wachtberg Wadern Wadgassen Waghäusel Waiblingen Waldbröl Waldkirch Waldkraiburg Waldshut-Tiengen
    Wallenhorst Walsrode Waltrop Wandlitz Warburg Wardenburg Warendorf Warstein Wassenberg
    Wattenscheid Weener Wegberg Weilerswist Weilheim Weimar Weingarten Weinheim Weinstadt-Endersbach
    Weiterstadt Wendelstein Werdau Werdohl Wermelskirchen Werne Wernigerode Wersten Wertheim Wesel
    Wesseling Westerstede Wettingen Wetzelsdorf Wetzikon Wetzlar Wickede Wiehl Wiesloch Wildeshausen
    Wilhelmsburg Wilhelmshaven Wilhelmstadt Willich Wilnsdorf Wilten Winnenden Winsen Winterhude
    Wipperfürth Wismar Witten Wittenau Wittenberg Wittlich Wittmund Wittstock Witzenhausen
    Wolfenbüttel Wolfratshausen Wolfsberg Worms Wunstorf Wurzen Währing Wülfrath Würselen Xanten
    Zehlendorf Zeitz Zerbst Zeulenroda-Triebes Zirndorf Zittau Zossen Zweibrücken Zwickau Zülpich
    Öhringen Übach-Palenberg Überlingen
    """
GERMAN_TOWNS: Final = frozenset(_NAMES.split())
